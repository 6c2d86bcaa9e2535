// planted: allowed (runtime may use ir)
#include "core/ir/graph.h"
