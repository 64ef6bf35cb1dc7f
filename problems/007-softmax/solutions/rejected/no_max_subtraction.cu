// expect: WA
// Mistake: computes exp(x) / sum(exp(x)) without subtracting the maximum first; expf overflows to inf for x above ~88.7, and inf / inf gives NaN (the other elements become 0).
#include <cuda_runtime.h>

constexpr int kBlock = 256;

__global__ void exp_sum(const float* in, float* total, int n) {
    __shared__ float cache[kBlock];
    const int t = threadIdx.x;
    const int i = blockIdx.x * kBlock + t;
    cache[t] = i < n ? expf(in[i]) : 0.0f;          // BUG: should be expf(in[i] - max)
    __syncthreads();
    for (int half = kBlock / 2; half > 0; half >>= 1) {
        if (t < half) cache[t] += cache[t + half];
        __syncthreads();
    }
    if (t == 0) atomicAdd(total, cache[0]);
}

__global__ void normalize(const float* in, const float* total, float* out, int n) {
    const int i = blockIdx.x * kBlock + threadIdx.x;
    if (i < n) out[i] = expf(in[i]) / total[0];
}

extern "C" void solve(const float* input, float* output, int N) {
    float* total = nullptr;
    cudaMalloc(&total, sizeof(float));
    cudaMemsetAsync(total, 0, sizeof(float));
    const int blocks = (N + kBlock - 1) / kBlock;
    exp_sum<<<blocks, kBlock>>>(input, total, N);
    normalize<<<blocks, kBlock>>>(input, total, output, N);
    cudaFree(total);
}
