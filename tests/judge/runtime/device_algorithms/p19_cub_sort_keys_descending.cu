// verdict: AC. cub::DeviceRadixSort::SortKeysDescending, then the first k.
#include <cub/device/device_radix_sort.cuh>

extern "C" void solve(const float* input, float* output, int N, int k) {
    float* sorted;
    cudaMalloc(&sorted, N * sizeof(float));
    size_t temp_bytes = 0;
    cub::DeviceRadixSort::SortKeysDescending(nullptr, temp_bytes, input, sorted, N);
    void* d_temp;
    cudaMalloc(&d_temp, temp_bytes);
    cub::DeviceRadixSort::SortKeysDescending(d_temp, temp_bytes, input, sorted, N);
    cudaMemcpy(output, sorted, k * sizeof(float), cudaMemcpyDeviceToDevice);
    cudaFree(d_temp);
    cudaFree(sorted);
}
