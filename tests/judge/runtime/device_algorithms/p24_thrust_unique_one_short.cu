// verdict: WA. One less than the distinct experts thrust::unique returns: the largest expert is never counted.
#include <thrust/copy.h>
#include <thrust/sort.h>
#include <thrust/unique.h>
#include <thrust/execution_policy.h>

__device__ int first_at_least(const int* sorted, int n, int value) {
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (sorted[mid] < value) lo = mid + 1; else hi = mid;
    }
    return lo;
}

__global__ void count_distinct(const int* sorted, int n, const int* distinct, int how_many, int* counts) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < how_many) {
        int e = distinct[i];
        counts[e] = first_at_least(sorted, n, e + 1) - first_at_least(sorted, n, e);
    }
}

__global__ void offsets_of(const int* counts, int* offsets, int num_experts, int block_size) {
    int total = 0;
    for (int e = 0; e < num_experts; ++e) {
        offsets[e] = total;
        total += (counts[e] + block_size - 1) / block_size * block_size;
    }
    offsets[num_experts] = total;
}

extern "C" void solve(const int* expert_ids, int* counts, int* offsets, int num_tokens, int num_experts,
                      int block_size) {
    int *sorted, *distinct;
    cudaMalloc(&sorted, num_tokens * sizeof(int));
    cudaMalloc(&distinct, num_tokens * sizeof(int));
    thrust::copy(thrust::device, expert_ids, expert_ids + num_tokens, sorted);
    thrust::sort(thrust::device, sorted, sorted + num_tokens);
    thrust::copy(thrust::device, sorted, sorted + num_tokens, distinct);
    int how_many = (int)(thrust::unique(thrust::device, distinct, distinct + num_tokens) - distinct) - 1;
    cudaMemset(counts, 0, num_experts * sizeof(int));
    count_distinct<<<(how_many + 255) / 256, 256>>>(sorted, num_tokens, distinct, how_many, counts);
    offsets_of<<<1, 1>>>(counts, offsets, num_experts, block_size);
    cudaFree(distinct);
    cudaFree(sorted);
}
