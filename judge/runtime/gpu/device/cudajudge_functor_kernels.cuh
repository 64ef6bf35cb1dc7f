// The judge's functor kernels, appended to the device TU of a file whose host code calls an
// algorithm that runs a functor of the user's (see the header it includes).
#pragma once
#include <cuda/functional>
#include <cuda/std/functional>
#include "../../host_std/cudajudge/functor_kernels.h"
