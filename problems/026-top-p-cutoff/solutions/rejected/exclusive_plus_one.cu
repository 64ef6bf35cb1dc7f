// expect: WA
// Compares the EXCLUSIVE prefix (the sum before element i) with p and then adds 1 as well: the crossing element is counted twice, giving k + 1.
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

__global__ void __launch_bounds__(kThreads)
cutoff_one_block(const float* probs, int* cutoff, int N, float p) {
    __shared__ float warp_base[32];
    __shared__ float chunk_total;
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    float carry = 0.0f;                                   // sum of all chunks before this one
    for (int start = 0; start < N; start += kThreads) {
        const int i = start + t;
        const float x = i < N ? probs[i] : 0.0f;
        const float inclusive = warp_inclusive_sum(x, lane);
        if (lane == 31) warp_base[warp] = inclusive;
        __syncthreads();
        if (warp == 0) {
            const float w = warp_base[lane];
            const float scanned = warp_inclusive_sum(w, lane);
            warp_base[lane] = scanned - w;
            if (lane == 31) chunk_total = scanned;
        }
        __syncthreads();
        const float prefix = carry + warp_base[warp] + inclusive;   // probs[0] + ... + probs[i]
        const int valid = min(kThreads, N - start);
        const int below = __syncthreads_count(i < N && prefix - x < p);   // sum BEFORE i
        if (below < valid) {                              // the same decision in every thread
            if (t == 0) *cutoff = start + below + 1;
            return;
        }
        carry += chunk_total;
        __syncthreads();                                  // warp_base is reused by the next chunk
    }
    if (t == 0) *cutoff = N;                              // not reached: the sum is 1 > p
}

extern "C" void solve(const float* probs, int* cutoff, int N, float p) {
    cutoff_one_block<<<1, kThreads>>>(probs, cutoff, N, p);
}
