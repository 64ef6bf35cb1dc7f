#include <cuda_runtime.h>

// Stable stream compaction: copy the elements of A that are > 0 to the front of out, in the
// order they appear in A. out is zero-filled by the judge, so the slots after the last kept
// element may simply be left alone.
//
// This starter keeps every positive element at its OWN index, which leaves gaps. The position
// of a kept element must be "how many kept elements come before it":
//   1. flags[i] = A[i] > 0 ? 1 : 0        (cudaMalloc a scratch array of N ints in solve)
//   2. an EXCLUSIVE prefix sum of the flags, across all blocks
//   3. if A[i] > 0: out[scanned[i]] = A[i]
// Inside a warp, __ballot_sync + __popc give the same count without a flags array.

__global__ void compact_kernel(const float* A, float* out, int N) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N && A[i] > 0.0f) {
        out[i] = A[i];   // TODO: write to the number of kept elements before i, not to i
    }
}

extern "C" void solve(const float* A, int N, float* out) {
    const int threads = 256;
    const int blocks = (N + threads - 1) / threads;
    compact_kernel<<<blocks, threads>>>(A, out, N);
    // No cudaDeviceSynchronize needed: the judge synchronizes after solve() returns.
}
