// Straightforward softmax in three phases, each a block reduction followed by a one-block
// pass over the per-block results:
//   1. block maxima -> one block turns them into the global maximum m;
//   2. block sums of expf(x - m) -> one block turns them into the global sum s;
//   3. output[i] = expf(input[i] - m) / s.
// Subtracting m makes the largest exponent exactly 0, so no expf overflows, and s >= 1.
#include <cuda_runtime.h>
#include <cfloat>

constexpr int kBlock = 256;    // power of two
constexpr int kFinal = 1024;   // one block that combines the per-block values

__device__ __forceinline__ float combine(float a, float b, bool is_max) {
    return is_max ? fmaxf(a, b) : a + b;
}

// Tree reduction of a block's values in shared memory; thread 0 gets the result.
template <int Threads>
__device__ float block_reduce(float v, bool is_max) {
    __shared__ float cache[Threads];
    const int t = threadIdx.x;
    cache[t] = v;
    __syncthreads();
    for (int half = Threads / 2; half > 0; half >>= 1) {
        if (t < half) cache[t] = combine(cache[t], cache[t + half], is_max);
        __syncthreads();
    }
    return cache[0];
}

// Phase 1 / 2: one element per thread. stats[0] holds m (read only in phase 2).
__global__ void block_max(const float* in, float* partial, int n) {
    const int i = blockIdx.x * kBlock + threadIdx.x;
    const float r = block_reduce<kBlock>(i < n ? in[i] : -FLT_MAX, true);
    if (threadIdx.x == 0) partial[blockIdx.x] = r;
}

__global__ void block_expsum(const float* in, const float* stats, float* partial, int n) {
    const int i = blockIdx.x * kBlock + threadIdx.x;
    const float m = stats[0];
    const float r = block_reduce<kBlock>(i < n ? expf(in[i] - m) : 0.0f, false);
    if (threadIdx.x == 0) partial[blockIdx.x] = r;
}

// One block combines `count` partial values into *dst.
__global__ void combine_partials(const float* partial, float* dst, int count, bool is_max) {
    float acc = is_max ? -FLT_MAX : 0.0f;
    for (int k = threadIdx.x; k < count; k += kFinal) acc = combine(acc, partial[k], is_max);
    const float r = block_reduce<kFinal>(acc, is_max);
    if (threadIdx.x == 0) *dst = r;
}

__global__ void normalize(const float* in, const float* stats, float* out, int n) {
    const int i = blockIdx.x * kBlock + threadIdx.x;
    if (i < n) out[i] = expf(in[i] - stats[0]) / stats[1];
}

extern "C" void solve(const float* input, float* output, int N) {
    if (N <= 0) return;
    const int blocks = (N + kBlock - 1) / kBlock;
    float* scratch = nullptr;                       // [m, s, partial[0..blocks)]
    if (cudaMalloc(&scratch, sizeof(float) * (2 + blocks)) != cudaSuccess) return;
    float* stats = scratch;
    float* partial = scratch + 2;

    block_max<<<blocks, kBlock>>>(input, partial, N);
    combine_partials<<<1, kFinal>>>(partial, stats + 0, blocks, true);
    block_expsum<<<blocks, kBlock>>>(input, stats, partial, N);
    combine_partials<<<1, kFinal>>>(partial, stats + 1, blocks, false);
    normalize<<<blocks, kBlock>>>(input, stats, output, N);
    cudaFree(scratch);
}
