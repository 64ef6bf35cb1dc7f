// verdict: WA. cub::DeviceScan::ExclusiveScan seeded with 1 instead of the sum's identity 0.
#include <cub/device/device_scan.cuh>
#include <cuda/std/functional>

extern "C" void solve(const int* input, int* output, int n) {
    size_t temp_bytes = 0;
    cub::DeviceScan::ExclusiveScan(nullptr, temp_bytes, input, output, cuda::std::plus<int>(), 1, n);
    void* d_temp;
    cudaMalloc(&d_temp, temp_bytes);
    cub::DeviceScan::ExclusiveScan(d_temp, temp_bytes, input, output, cuda::std::plus<int>(), 1, n);
    cudaFree(d_temp);
}
