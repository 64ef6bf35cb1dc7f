#include <cuda_runtime.h>

// MoE expert counts and block-aligned offsets.
//   counts[e]  = how many i have expert_ids[i] == e                      (num_experts entries)
//   offsets[e] = sum over j < e of round_up(counts[j], block_size)       (num_experts + 1 entries)
// Neither output is zeroed for you: both hold garbage when solve() is called.
//
// This starter counts, but it adds onto whatever counts holds and writes no offsets.
// To finish it:
//   1. zero counts first (cudaMemsetAsync is fine);
//   2. round each expert's count UP to a multiple of block_size, e.g.
//        (c + block_size - 1) / block_size * block_size;
//   3. write the exclusive prefix sum of the rounded counts into offsets, with the total in
//      offsets[num_experts] (num_experts <= 1024: one block can do it);
//   4. for speed, count into a per-block copy of the counters in shared memory first.

__global__ void count_tokens(const int* expert_ids, int* counts, int num_tokens) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < num_tokens) atomicAdd(&counts[expert_ids[i]], 1);   // TODO: counts is not zero yet
}

__global__ void block_offsets(const int* counts, int* offsets, int num_experts, int block_size) {
    // TODO: offsets[0] = 0 and offsets[e + 1] = offsets[e] + round_up(counts[e], block_size)
}

extern "C" void solve(const int* expert_ids, int* counts, int* offsets, int num_tokens,
                      int num_experts, int block_size) {
    count_tokens<<<(num_tokens + 255) / 256, 256>>>(expert_ids, counts, num_tokens);
    block_offsets<<<1, 1>>>(counts, offsets, num_experts, block_size);
    // No cudaDeviceSynchronize needed: the judge synchronizes after solve() returns.
}
