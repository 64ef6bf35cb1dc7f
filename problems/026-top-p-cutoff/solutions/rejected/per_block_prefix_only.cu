// expect: WA
// Every block scans its own 1024 probabilities and compares its LOCAL prefix sums with p, forgetting the probability mass of all blocks before it: the first block whose own prefix reaches p wins.
#include <cuda_runtime.h>

constexpr int kThreads = 1024;
constexpr unsigned kFull = 0xffffffffu;

__device__ __forceinline__ float warp_inclusive_sum(float v, int lane) {
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const float up = __shfl_up_sync(kFull, v, d);
        if (lane >= d) v += up;
    }
    return v;
}

__global__ void set_value(int* cutoff, int value) { *cutoff = value; }

__global__ void __launch_bounds__(kThreads)
cutoff_per_block(const float* probs, int* cutoff, int N, float p) {
    __shared__ float warp_base[32];
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    const int start = blockIdx.x * kThreads;
    const int i = start + t;
    const float x = i < N ? probs[i] : 0.0f;
    const float inclusive = warp_inclusive_sum(x, lane);
    if (lane == 31) warp_base[warp] = inclusive;
    __syncthreads();
    if (warp == 0) {
        const float w = warp_base[lane];
        warp_base[lane] = warp_inclusive_sum(w, lane) - w;
    }
    __syncthreads();
    const float prefix = warp_base[warp] + inclusive;      // missing: the blocks before this one
    const int below = __syncthreads_count(i < N && prefix < p);
    if (t == 0 && below < min(kThreads, N - start)) atomicMin(cutoff, start + below + 1);
}

extern "C" void solve(const float* probs, int* cutoff, int N, float p) {
    set_value<<<1, 1>>>(cutoff, N);
    cutoff_per_block<<<(N + kThreads - 1) / kThreads, kThreads>>>(probs, cutoff, N, p);
}
