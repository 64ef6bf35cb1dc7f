// verdict: WA. cub::DeviceReduce::Sum over N - 1 items: the last one is left out.
#include <cub/device/device_reduce.cuh>

extern "C" void solve(const float* input, float* output, int N) {
    void* d_temp = nullptr;
    size_t temp_bytes = 0;
    cub::DeviceReduce::Sum(d_temp, temp_bytes, input, output, N - 1);
    cudaMalloc(&d_temp, temp_bytes);
    cub::DeviceReduce::Sum(d_temp, temp_bytes, input, output, N - 1);
    cudaFree(d_temp);
}
