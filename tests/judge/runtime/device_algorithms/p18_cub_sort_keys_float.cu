// verdict: AC. cub::DeviceRadixSort::SortKeys on float keys, into a copy and back.
#include <cub/device/device_radix_sort.cuh>

extern "C" void solve(float* data, int N) {
    float* sorted;
    cudaMalloc(&sorted, N * sizeof(float));
    size_t temp_bytes = 0;
    cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, data, sorted, N);
    void* d_temp;
    cudaMalloc(&d_temp, temp_bytes);
    cub::DeviceRadixSort::SortKeys(d_temp, temp_bytes, data, sorted, N);
    cudaMemcpy(data, sorted, N * sizeof(float), cudaMemcpyDeviceToDevice);
    cudaFree(d_temp);
    cudaFree(sorted);
}
