// expect: WA
// Mistake: every block subtracts its OWN maximum instead of the maximum of the whole vector; the global sum then mixes terms scaled by different factors exp(-m_block), so the result is wrong as soon as there is more than one block.
#include <cuda_runtime.h>
#include <cfloat>

constexpr int kBlock = 256;

__device__ float block_max(float v) {
    __shared__ float cache[kBlock];
    const int t = threadIdx.x;
    cache[t] = v;
    __syncthreads();
    for (int half = kBlock / 2; half > 0; half >>= 1) {
        if (t < half) cache[t] = fmaxf(cache[t], cache[t + half]);
        __syncthreads();
    }
    const float m = cache[0];
    __syncthreads();
    return m;
}

__global__ void exp_sum(const float* in, float* total, int n) {
    __shared__ float cache[kBlock];
    const int t = threadIdx.x;
    const int i = blockIdx.x * kBlock + t;
    const float m = block_max(i < n ? in[i] : -FLT_MAX);     // BUG: this block's max only
    cache[t] = i < n ? expf(in[i] - m) : 0.0f;
    __syncthreads();
    for (int half = kBlock / 2; half > 0; half >>= 1) {
        if (t < half) cache[t] += cache[t + half];
        __syncthreads();
    }
    if (t == 0) atomicAdd(total, cache[0]);
}

__global__ void normalize(const float* in, const float* total, float* out, int n) {
    const int i = blockIdx.x * kBlock + threadIdx.x;
    const float m = block_max(i < n ? in[i] : -FLT_MAX);     // same block, same (local) max
    if (i < n) out[i] = expf(in[i] - m) / total[0];
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
