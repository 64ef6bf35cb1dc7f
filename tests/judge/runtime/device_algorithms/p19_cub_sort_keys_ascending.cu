// verdict: WA. cub::DeviceRadixSort::SortKeys sorts ascending: the first k are the smallest.
#include <cub/device/device_radix_sort.cuh>

extern "C" void solve(const float* input, float* output, int N, int k) {
    float* sorted;
    cudaMalloc(&sorted, N * sizeof(float));
    size_t temp_bytes = 0;
    cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, input, sorted, N);
    void* d_temp;
    cudaMalloc(&d_temp, temp_bytes);
    cub::DeviceRadixSort::SortKeys(d_temp, temp_bytes, input, sorted, N);
    cudaMemcpy(output, sorted, k * sizeof(float), cudaMemcpyDeviceToDevice);
    cudaFree(d_temp);
    cudaFree(sorted);
}
