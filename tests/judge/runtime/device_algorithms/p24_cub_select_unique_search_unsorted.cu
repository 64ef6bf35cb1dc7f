// verdict: WA. The distinct experts are counted by binary search in the unsorted ids.
#include <cub/cub.cuh>

__device__ int first_at_least(const int* sorted, int n, int value) {
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (sorted[mid] < value) lo = mid + 1; else hi = mid;
    }
    return lo;
}

__global__ void count_distinct(const int* sorted, int n, const int* distinct, const int* how_many, int* counts) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < *how_many) {
        int e = distinct[i];
        counts[e] = first_at_least(sorted, n, e + 1) - first_at_least(sorted, n, e);
    }
}

__global__ void offsets_of(const int* counts, int* offsets, int num_experts, int block_size) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        int total = 0;
        for (int e = 0; e < num_experts; ++e) {
            offsets[e] = total;
            total += (counts[e] + block_size - 1) / block_size * block_size;
        }
        offsets[num_experts] = total;
    }
}

extern "C" void solve(const int* expert_ids, int* counts, int* offsets, int num_tokens, int num_experts,
                      int block_size) {
    int *sorted, *distinct, *how_many;
    cudaMalloc(&sorted, num_tokens * sizeof(int));
    cudaMalloc(&distinct, num_tokens * sizeof(int));
    cudaMalloc(&how_many, sizeof(int));
    size_t sort_bytes = 0, unique_bytes = 0;
    cub::DeviceRadixSort::SortKeys(nullptr, sort_bytes, expert_ids, sorted, num_tokens);
    cub::DeviceSelect::Unique(nullptr, unique_bytes, sorted, distinct, how_many, num_tokens);
    size_t temp_bytes = sort_bytes > unique_bytes ? sort_bytes : unique_bytes;
    void* d_temp;
    cudaMalloc(&d_temp, temp_bytes);
    cub::DeviceRadixSort::SortKeys(d_temp, temp_bytes, expert_ids, sorted, num_tokens);
    cub::DeviceSelect::Unique(d_temp, temp_bytes, sorted, distinct, how_many, num_tokens);
    cudaMemset(counts, 0, num_experts * sizeof(int));
    count_distinct<<<(num_tokens + 255) / 256, 256>>>(expert_ids, num_tokens, distinct, how_many, counts);
    offsets_of<<<1, 1>>>(counts, offsets, num_experts, block_size);
    cudaFree(d_temp);
    cudaFree(how_many);
    cudaFree(distinct);
    cudaFree(sorted);
}
