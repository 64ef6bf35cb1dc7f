// expect: WA
// Mistake: reserves output slots with atomicAdd on a counter. Every kept element is written, but in the order the threads happen to reach the atomic, not in input order: the compaction is no longer stable.
#include <cuda_runtime.h>

__global__ void append_kept(const float* A, float* out, int* next_slot, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float v = A[i];
        if (v > 0.0f) out[atomicAdd(next_slot, 1)] = v;   // BUG: slot order != input order
    }
}

extern "C" void solve(const float* A, int N, float* out) {
    int* next_slot = nullptr;
    cudaMalloc(&next_slot, sizeof(int));
    cudaMemset(next_slot, 0, sizeof(int));
    const int threads = 256;
    append_kept<<<(N + threads - 1) / threads, threads>>>(A, out, next_slot, N);
    cudaFree(next_slot);
}
