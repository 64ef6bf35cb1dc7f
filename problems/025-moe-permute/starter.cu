#include <cuda_runtime.h>

// MoE token permutation: permuted = the token indices 0 .. num_tokens-1 sorted by expert_ids,
// STABLY: all tokens of expert 0 in increasing index order, then those of expert 1, ...
// expert_ids and permuted are device pointers; permuted is NOT zeroed for you.
//
// This starter only works when every token goes to expert 0 (it copies the identity).
// A plan that keeps the order:
//   1. cut the tokens into tiles; count every tile's tokens per expert (shared-memory atomics)
//      and store the counts expert-major: counts[e * num_tiles + tile];
//   2. an exclusive scan of that whole matrix gives, for each (expert, tile), where the tile's
//      tokens of that expert start in the output (cudaMalloc the matrix; for large inputs the
//      scan needs several blocks and a carry between them);
//   3. each tile writes its tokens at start + rank, where rank = how many EARLIER tokens of the
//      same tile have the same expert (__match_any_sync + __popc does 32 tokens at once).
// An atomicAdd per token to take a slot is fast but hands out slots in arrival order: not stable.

__global__ void identity(int* permuted, int num_tokens) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < num_tokens) permuted[i] = i;   // TODO: group by expert, keep the order inside a group
}

extern "C" void solve(const int* expert_ids, int* permuted, int num_tokens, int num_experts) {
    identity<<<(num_tokens + 255) / 256, 256>>>(permuted, num_tokens);
    // No cudaDeviceSynchronize needed: the judge synchronizes after solve() returns.
}
