// expect: WA race
// Mistake: the shared-memory tree has no __syncthreads() between its levels, so a thread reads its partner's slot before the partner has added its own half into it (or after another level changed it).
#include <cuda_runtime.h>

constexpr int kBlock = 256;

__global__ void block_dot(const float* A, const float* B, float* result, int n) {
    __shared__ float cache[kBlock];
    const int t = threadIdx.x;
    float acc = 0.0f;
    for (int i = blockIdx.x * kBlock + t; i < n; i += gridDim.x * kBlock) acc += A[i] * B[i];
    cache[t] = acc;
    __syncthreads();
    for (int half = kBlock / 2; half > 0; half >>= 1) {
        if (t < half) cache[t] += cache[t + half];
        // BUG: a __syncthreads() belongs here; the next level reads slots this level writes.
    }
    if (t == 0) atomicAdd(result, cache[0]);
}

extern "C" void solve(const float* A, const float* B, float* result, int N) {
    cudaMemsetAsync(result, 0, sizeof(float));
    int blocks = (N + kBlock - 1) / kBlock;
    if (blocks > 512) blocks = 512;
    block_dot<<<blocks, kBlock>>>(A, B, result, N);
}
