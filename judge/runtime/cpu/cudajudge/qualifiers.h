// CUDA's declaration qualifiers, mapped onto one host translation unit.
#pragma once

#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)
#define __grid_constant__
#define __builtin_align__(n) __attribute__((aligned(n)))

// Static shared memory is per block. One OS thread runs all threads of a block (as fibers)
// and runs one block at a time, so thread-local storage is exactly per-block storage.
// At block scope thread_local implies static. `extern __shared__` arrays are rewritten by
// the build into pointers to the block's dynamic shared memory (cudajudge::dynamic_shared).
#define __shared__ thread_local
