// The Keras frontend: .keras archives (a zip with config.json, metadata.json and
// model.weights.h5) and legacy .h5 files with a model_config attribute.
#pragma once

#include <memory>

#include "core/frontends/frontend.h"

namespace ec::frontends {

std::unique_ptr<Frontend> make_keras_frontend();

}  // namespace ec::frontends
