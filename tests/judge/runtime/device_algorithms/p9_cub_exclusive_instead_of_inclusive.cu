// verdict: WA. cub::DeviceScan::ExclusiveSum where the problem asks for the inclusive scan.
#include <cub/device/device_scan.cuh>

extern "C" void solve(const float* input, float* output, int N) {
    size_t temp_bytes = 0;
    cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, input, output, N);
    void* d_temp;
    cudaMalloc(&d_temp, temp_bytes);
    cub::DeviceScan::ExclusiveSum(d_temp, temp_bytes, input, output, N);
    cudaFree(d_temp);
}
