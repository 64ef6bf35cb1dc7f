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

// The build rewrites `__shared__` variables declared in functions into slots the runtime lays out
// per block (cudajudge::static_shared) and `extern __shared__` arrays into pointers to the block's
// dynamic shared memory (cudajudge::dynamic_shared). What is left, at namespace scope, is per OS
// thread: one OS thread runs all threads of a block (as fibers), one block at a time.
#define __shared__ thread_local
