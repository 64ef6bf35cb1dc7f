// verdict: AC. thrust::sequence numbers the tokens, thrust::sort_by_key orders them by expert (a radix sort, stable, for integer keys).
#include <thrust/copy.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/execution_policy.h>

extern "C" void solve(const int* expert_ids, int* permuted, int num_tokens, int num_experts) {
    int* keys;
    cudaMalloc(&keys, num_tokens * sizeof(int));
    thrust::copy(thrust::device, expert_ids, expert_ids + num_tokens, keys);
    thrust::sequence(thrust::device, permuted, permuted + num_tokens);
    thrust::sort_by_key(thrust::device, keys, keys + num_tokens, permuted);
    cudaFree(keys);
}
