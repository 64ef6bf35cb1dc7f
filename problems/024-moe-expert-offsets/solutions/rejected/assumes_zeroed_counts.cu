// expect: WA
// Assumes counts is zero on entry and atomically adds onto it: counts holds garbage (0xCD bytes) until solve() zeroes it.
#include <cuda_runtime.h>

constexpr int kMaxExperts = 1024;

__global__ void count_tokens(const int* expert_ids, int* counts, int num_tokens) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < num_tokens) atomicAdd(&counts[expert_ids[i]], 1);
}

// offsets[e + 1] = inclusive scan of round_up(counts[e]); offsets[0] = 0. One block, 1024 threads.
__global__ void aligned_offsets(const int* counts, int* offsets, int num_experts, int block_size) {
    __shared__ int s[kMaxExperts];
    const int e = threadIdx.x;
    const int c = e < num_experts ? counts[e] : 0;
    s[e] = (c + block_size - 1) / block_size * block_size;   // round EACH count up
    __syncthreads();
    for (int d = 1; d < kMaxExperts; d <<= 1) {
        const int add = e >= d ? s[e - d] : 0;
        __syncthreads();
        s[e] += add;
        __syncthreads();
    }
    if (e < num_experts) offsets[e + 1] = s[e];
    if (e == 0) offsets[0] = 0;
}

extern "C" void solve(const int* expert_ids, int* counts, int* offsets, int num_tokens,
                      int num_experts, int block_size) {
    // (counts are assumed to start at zero)
    count_tokens<<<(num_tokens + 255) / 256, 256>>>(expert_ids, counts, num_tokens);
    aligned_offsets<<<1, kMaxExperts>>>(counts, offsets, num_experts, block_size);
}
