// The TensorFlow SavedModel frontend: a folder with saved_model.pb and variables/.
#pragma once

#include <memory>

#include "core/frontends/frontend.h"

namespace ec::frontends {

std::unique_ptr<Frontend> make_savedmodel_frontend();

}  // namespace ec::frontends
