// verdict: WA. cub::DeviceRadixSort::SortPairsDescending puts the last expert first.
#include <cub/device/device_radix_sort.cuh>

__global__ void iota(int* v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = i;
}

extern "C" void solve(const int* expert_ids, int* permuted, int num_tokens, int num_experts) {
    int *keys_out, *index;
    cudaMalloc(&keys_out, num_tokens * sizeof(int));
    cudaMalloc(&index, num_tokens * sizeof(int));
    iota<<<(num_tokens + 255) / 256, 256>>>(index, num_tokens);
    size_t temp_bytes = 0;
    cub::DeviceRadixSort::SortPairsDescending(nullptr, temp_bytes, expert_ids, keys_out, index, permuted, num_tokens);
    void* d_temp;
    cudaMalloc(&d_temp, temp_bytes);
    cub::DeviceRadixSort::SortPairsDescending(d_temp, temp_bytes, expert_ids, keys_out, index, permuted, num_tokens);
    cudaFree(d_temp);
    cudaFree(index);
    cudaFree(keys_out);
}
