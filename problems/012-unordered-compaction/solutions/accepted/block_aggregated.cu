// Block-aggregated atomics: one atomicAdd per block of 1024 elements. Each thread handles 4
// consecutive-by-256 elements; the warps count their kept elements with __ballot_sync/__popc,
// the counts are scanned in shared memory, thread 0 reserves the whole block's slots at once,
// and every kept element is written at block start + its rank inside the block. The output
// stays grouped by block (and ordered inside a block), though blocks land in any order.
#include <cuda_runtime.h>

constexpr unsigned kFull = 0xffffffffu;
constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kRounds = 4;
constexpr int kTile = kThreads * kRounds;

__global__ void __launch_bounds__(kThreads)
compact_block_aggregated(const float* __restrict__ input, float* __restrict__ output, int* count, int n) {
    __shared__ int warp_count[kRounds][kWarps];
    __shared__ int block_first;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const unsigned lower_lanes = (1u << lane) - 1u;
    const long long base = (long long)blockIdx.x * kTile;

    float v[kRounds];
    unsigned mask[kRounds];
#pragma unroll
    for (int r = 0; r < kRounds; ++r) {
        const long long i = base + r * kThreads + threadIdx.x;
        v[r] = i < n ? input[i] : 0.0f;
        mask[r] = __ballot_sync(kFull, v[r] > 0.0f);
        if (lane == 0) warp_count[r][warp] = __popc(mask[r]);
    }
    __syncthreads();
    if (threadIdx.x == 0) {                            // 32 counts: a serial exclusive scan is fine
        int total = 0;
        for (int r = 0; r < kRounds; ++r)
            for (int w = 0; w < kWarps; ++w) {
                const int c = warp_count[r][w];
                warp_count[r][w] = total;
                total += c;
            }
        block_first = total > 0 ? atomicAdd(count, total) : 0;
    }
    __syncthreads();
    const int first = block_first;
#pragma unroll
    for (int r = 0; r < kRounds; ++r)
        if (v[r] > 0.0f) output[first + warp_count[r][warp] + __popc(mask[r] & lower_lanes)] = v[r];
}

extern "C" void solve(const float* input, float* output, int* count, int n) {
    const int blocks = (int)(((long long)n + kTile - 1) / kTile);
    compact_block_aggregated<<<blocks, kThreads>>>(input, output, count, n);
}
