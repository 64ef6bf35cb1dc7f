// The CUDA-on-CPU runtime as user code sees it. Every CPU build force-includes this header
// (g++ -include), so a submission compiles as ordinary C++17 against these definitions.
//
// Standard headers come first: the CUDA qualifier macros defined below must not rewrite them
// (libstdc++ spells some GNU attributes with the same names).
#pragma once

#include <algorithm>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <math.h>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "../cudajudge_nvcc_names.h"
#include "cudajudge/qualifiers.h"
#include "cudajudge/vector_types.h"
#include "cudajudge/builtin_vars.h"
#include "cudajudge/intrinsics.h"
#include "cudajudge/ptx.h"
#include "cudajudge/atomics.h"
#include "cudajudge/sync.h"
#include "cudajudge/runtime_api.h"
#include "cudajudge/launch.h"
