// expect: WA race
// Mistake: shared-memory privatization without the __syncthreads() between adding into the block's partial sums and merging them into output: a thread merges a partial sum while other threads of the block are still adding to it, and their later additions are lost.
#include <cuda_runtime.h>

constexpr int kThreads = 256;

__global__ void scatter_add_private(const float* values, const int* indices, float* output, int N, int M) {
    extern __shared__ float partial[];
    for (int k = threadIdx.x; k < M; k += blockDim.x) partial[k] = 0.0f;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x)
        atomicAdd(&partial[indices[i]], values[i]);
    // BUG: missing __syncthreads() here
    for (int k = threadIdx.x; k < M; k += blockDim.x)
        if (partial[k] != 0.0f) atomicAdd(&output[k], partial[k]);
}

__global__ void scatter_add_global(const float* values, const int* indices, float* output, int N) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) atomicAdd(&output[indices[i]], values[i]);
}

extern "C" void solve(const float* values, const int* indices, float* output, int N, int M) {
    if (M > 8192) {          // too big for shared memory: one global atomic per value
        scatter_add_global<<<(N + kThreads - 1) / kThreads, kThreads>>>(values, indices, output, N);
        return;
    }
    int blocks = (N + 16 * kThreads - 1) / (16 * kThreads);
    if (blocks > 256) blocks = 256;
    scatter_add_private<<<blocks, kThreads, M * sizeof(float)>>>(values, indices, output, N, M);
}
