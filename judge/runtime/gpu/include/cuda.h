// Host side of <cuda.h> for submissions: everything it offers lives in the judge's cuda_runtime.h.
#pragma once
#include <cuda_runtime.h>
