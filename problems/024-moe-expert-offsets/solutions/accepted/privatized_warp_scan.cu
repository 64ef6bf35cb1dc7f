// Privatized counting and a warp-shuffle scan.
//   count: a grid-stride loop over the tokens; every block counts into its own copy of the
//          num_experts counters in shared memory, then adds its non-zero counters to the global
//          ones. With a few hundred blocks that is a few hundred global atomics per expert
//          instead of one per token - which matters most when one expert is hot.
//   scan:  one block; each thread owns a run of consecutive experts, the warp scans its run
//          totals with __shfl_up_sync, and the warps' totals are scanned by warp 0.
#include <cuda_runtime.h>

constexpr int kCountThreads = 512;
constexpr int kScanThreads = 256;
constexpr unsigned kFull = 0xffffffffu;

__global__ void __launch_bounds__(kCountThreads)
count_private(const int* __restrict__ expert_ids, int* counts, int num_tokens, int num_experts) {
    extern __shared__ int local[];
    for (int e = threadIdx.x; e < num_experts; e += blockDim.x) local[e] = 0;
    __syncthreads();
    const int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < num_tokens; i += stride)
        atomicAdd(&local[expert_ids[i]], 1);
    __syncthreads();
    for (int e = threadIdx.x; e < num_experts; e += blockDim.x)
        if (local[e] != 0) atomicAdd(&counts[e], local[e]);
}

__device__ __forceinline__ int warp_inclusive_scan(int v, int lane) {
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const int up = __shfl_up_sync(kFull, v, d);
        if (lane >= d) v += up;
    }
    return v;
}

__global__ void __launch_bounds__(kScanThreads)
aligned_offsets(const int* counts, int* offsets, int num_experts, int block_size) {
    __shared__ int warp_base[kScanThreads / 32];
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    const int per_thread = (num_experts + kScanThreads - 1) / kScanThreads;   // <= 4 for 1024
    const int first = t * per_thread;
    int run = 0;
    for (int k = 0; k < per_thread; ++k) {
        const int e = first + k;
        if (e < num_experts) run += (counts[e] + block_size - 1) / block_size * block_size;
    }
    const int inclusive = warp_inclusive_scan(run, lane);
    if (lane == 31) warp_base[warp] = inclusive;
    __syncthreads();
    if (warp == 0) {
        const int total = lane < kScanThreads / 32 ? warp_base[lane] : 0;
        const int scanned = warp_inclusive_scan(total, lane);
        if (lane < kScanThreads / 32) warp_base[lane] = scanned - total;
    }
    __syncthreads();
    int running = warp_base[warp] + inclusive - run;   // padded size of all experts before mine
    if (t == 0) offsets[0] = 0;
    for (int k = 0; k < per_thread; ++k) {
        const int e = first + k;
        if (e < num_experts) {
            running += (counts[e] + block_size - 1) / block_size * block_size;
            offsets[e + 1] = running;
        }
    }
}

extern "C" void solve(const int* expert_ids, int* counts, int* offsets, int num_tokens,
                      int num_experts, int block_size) {
    cudaMemsetAsync(counts, 0, num_experts * sizeof(int));
    int blocks = (num_tokens + kCountThreads * 8 - 1) / (kCountThreads * 8);   // >= 8 tokens a thread
    blocks = blocks < 1 ? 1 : (blocks > 528 ? 528 : blocks);                  // a few per SM
    count_private<<<blocks, kCountThreads, num_experts * sizeof(int)>>>(expert_ids, counts, num_tokens,
                                                                         num_experts);
    aligned_offsets<<<1, kScanThreads>>>(counts, offsets, num_experts, block_size);
}
