// verdict: AC. cub::DeviceRadixSort::SortKeys over all 32 bits.
#include <cub/device/device_radix_sort.cuh>

extern "C" void solve(const unsigned int* input, unsigned int* output, int N) {
    size_t temp_bytes = 0;
    cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, input, output, N, 0, 32);
    void* d_temp;
    cudaMalloc(&d_temp, temp_bytes);
    cub::DeviceRadixSort::SortKeys(d_temp, temp_bytes, input, output, N, 0, 32);
    cudaFree(d_temp);
}
