// expect: WA race
// Mistake: the global maximum is right, but the shared-memory tree that adds up a block's exponentials has no __syncthreads() between levels, so threads read partial sums that are not finished yet; the denominator comes out wrong.
#include <cuda_runtime.h>
#include <cfloat>

constexpr int kBlock = 256;

// Maximum as an order-preserving integer so one atomicMax can combine the blocks.
__device__ __forceinline__ int ordered(float f) {
    const int b = __float_as_int(f);
    return b >= 0 ? b : b ^ 0x7fffffff;
}
__device__ __forceinline__ float unordered(int k) {
    return __int_as_float(k >= 0 ? k : k ^ 0x7fffffff);
}

__global__ void global_max(const float* in, int* max_key, int n) {
    __shared__ float cache[kBlock];
    const int t = threadIdx.x;
    const int i = blockIdx.x * kBlock + t;
    cache[t] = i < n ? in[i] : -FLT_MAX;
    __syncthreads();
    for (int half = kBlock / 2; half > 0; half >>= 1) {
        if (t < half) cache[t] = fmaxf(cache[t], cache[t + half]);
        __syncthreads();
    }
    if (t == 0) atomicMax(max_key, ordered(cache[0]));
}

__global__ void exp_sum(const float* in, const int* max_key, float* total, int n) {
    __shared__ float cache[kBlock];
    const int t = threadIdx.x;
    const int i = blockIdx.x * kBlock + t;
    const float m = unordered(*max_key);
    cache[t] = i < n ? expf(in[i] - m) : 0.0f;
    __syncthreads();
    for (int half = kBlock / 2; half > 0; half >>= 1) {
        if (t < half) cache[t] += cache[t + half];
        // BUG: missing __syncthreads(); the next level reads slots this level is still writing.
    }
    if (t == 0) atomicAdd(total, cache[0]);
}

__global__ void normalize(const float* in, const int* max_key, const float* total, float* out, int n) {
    const int i = blockIdx.x * kBlock + threadIdx.x;
    if (i < n) out[i] = expf(in[i] - unordered(*max_key)) / total[0];
}

extern "C" void solve(const float* input, float* output, int N) {
    void* scratch = nullptr;                        // [max key (int), total (float)]
    cudaMalloc(&scratch, 8);
    int* max_key = static_cast<int*>(scratch);
    float* total = reinterpret_cast<float*>(max_key + 1);
    cudaMemsetAsync(total, 0, sizeof(float));
    const int lowest = (int)0x80000000;             // below ordered(x) of every input x
    cudaMemcpyAsync(max_key, &lowest, sizeof(int), cudaMemcpyHostToDevice);
    const int blocks = (N + kBlock - 1) / kBlock;
    global_max<<<blocks, kBlock>>>(input, max_key, N);
    exp_sum<<<blocks, kBlock>>>(input, max_key, total, N);
    normalize<<<blocks, kBlock>>>(input, max_key, total, output, N);
    cudaFree(scratch);
}
