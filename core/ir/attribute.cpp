#include "core/ir/attribute.h"

namespace ec::ir {

const char* attr_kind_name(AttrKind k) {
  switch (k) {
    case AttrKind::Int: return "int";
    case AttrKind::Float: return "float";
    case AttrKind::String: return "string";
    case AttrKind::Ints: return "ints";
    case AttrKind::Floats: return "floats";
    case AttrKind::Strings: return "strings";
    case AttrKind::Tensor: return "tensor";
  }
  return "?";
}

}  // namespace ec::ir
