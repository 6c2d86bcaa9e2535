// Files of core/render/templates/ embedded at build time (embed_resources.cmake).
#pragma once

#include <string_view>

namespace ec::render {

/// The bytes of the embedded file `name` ("report.html", "report.css", "report.js");
/// empty when there is none of that name.
std::string_view resource(std::string_view name);

}  // namespace ec::render
