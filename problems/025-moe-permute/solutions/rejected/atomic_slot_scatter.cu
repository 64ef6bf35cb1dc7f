// expect: WA
// Takes each token's slot with atomicAdd on a per-expert cursor: every token lands in its expert's range, but in whatever order the atomics happen - not in increasing token order, so the permutation is not the stable one.
#include <cuda_runtime.h>

constexpr int kMaxExperts = 1024;

__global__ void count_tokens(const int* ids, int* counts, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&counts[ids[i]], 1);
}

// cursor[e] = counts[0] + ... + counts[e - 1]; one block.
__global__ void expert_starts(const int* counts, int* cursor, int num_experts) {
    __shared__ int s[kMaxExperts];
    const int e = threadIdx.x;
    s[e] = e < num_experts ? counts[e] : 0;
    __syncthreads();
    for (int d = 1; d < kMaxExperts; d <<= 1) {
        const int add = e >= d ? s[e - d] : 0;
        __syncthreads();
        s[e] += add;
        __syncthreads();
    }
    if (e < num_experts) cursor[e] = s[e] - (e < num_experts ? counts[e] : 0);
}

__global__ void scatter_atomic(const int* ids, int* cursor, int* permuted, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) permuted[atomicAdd(&cursor[ids[i]], 1)] = i;   // order of arrival, not of i
}

extern "C" void solve(const int* expert_ids, int* permuted, int num_tokens, int num_experts) {
    int* scratch = nullptr;
    if (cudaMalloc(&scratch, 2 * num_experts * sizeof(int)) != cudaSuccess) return;
    int* counts = scratch;
    int* cursor = scratch + num_experts;
    cudaMemsetAsync(counts, 0, num_experts * sizeof(int));
    const int blocks = (num_tokens + 255) / 256;
    count_tokens<<<blocks, 256>>>(expert_ids, counts, num_tokens);
    expert_starts<<<1, kMaxExperts>>>(counts, cursor, num_experts);
    scatter_atomic<<<blocks, 256>>>(expert_ids, cursor, permuted, num_tokens);
    cudaFree(scratch);
}
