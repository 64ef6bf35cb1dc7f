// verdict: AC. The stable argsort: cub::DeviceRadixSort::SortPairs of (expert, index) over the bits
// num_experts needs.
#include <cub/device/device_radix_sort.cuh>

__global__ void iota(int* v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = i;
}

extern "C" void solve(const int* expert_ids, int* permuted, int num_tokens, int num_experts) {
    int end_bit = 1;
    while ((1 << end_bit) < num_experts) ++end_bit;
    int *keys_out, *index;
    cudaMalloc(&keys_out, num_tokens * sizeof(int));
    cudaMalloc(&index, num_tokens * sizeof(int));
    iota<<<(num_tokens + 255) / 256, 256>>>(index, num_tokens);
    size_t temp_bytes = 0;
    cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, expert_ids, keys_out, index, permuted, num_tokens, 0, end_bit);
    void* d_temp;
    cudaMalloc(&d_temp, temp_bytes);
    cub::DeviceRadixSort::SortPairs(d_temp, temp_bytes, expert_ids, keys_out, index, permuted, num_tokens, 0, end_bit);
    cudaFree(d_temp);
    cudaFree(index);
    cudaFree(keys_out);
}
