// verdict: RE. Half the temporary storage the size query asked for.
#include <cub/device/device_reduce.cuh>

extern "C" void solve(const float* input, float* output, int N) {
    void* d_temp = nullptr;
    size_t temp_bytes = 0;
    cub::DeviceReduce::Sum(d_temp, temp_bytes, input, output, N);
    temp_bytes /= 2;
    cudaMalloc(&d_temp, temp_bytes);
    cub::DeviceReduce::Sum(d_temp, temp_bytes, input, output, N);
    cudaFree(d_temp);
}
