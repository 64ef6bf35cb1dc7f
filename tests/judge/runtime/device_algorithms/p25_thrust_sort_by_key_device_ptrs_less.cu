// verdict: AC. Without a policy: thrust::sequence from 0 and thrust::stable_sort_by_key with thrust::less on device_ptrs.
#include <thrust/copy.h>
#include <thrust/device_ptr.h>
#include <thrust/functional.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>

extern "C" void solve(const int* expert_ids, int* permuted, int num_tokens, int num_experts) {
    int* raw_keys;
    cudaMalloc(&raw_keys, num_tokens * sizeof(int));
    thrust::device_ptr<const int> ids(expert_ids);
    thrust::device_ptr<int> keys(raw_keys), order(permuted);
    thrust::copy(ids, ids + num_tokens, keys);
    thrust::sequence(order, order + num_tokens, 0);
    thrust::stable_sort_by_key(keys, keys + num_tokens, order, thrust::less<int>());
    cudaFree(raw_keys);
}
