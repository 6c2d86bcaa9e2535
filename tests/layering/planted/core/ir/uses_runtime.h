// planted: the ir layer may not include the runtime
#pragma once

#include "core/session/session.h"
