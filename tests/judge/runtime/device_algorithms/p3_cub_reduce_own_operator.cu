// verdict: CE "an operator of your own cannot run on the device here yet".
#include <cub/device/device_reduce.cuh>

struct add {
    __host__ __device__ float operator()(float a, float b) const { return a + b; }
};

extern "C" void solve(const float* input, float* output, int N) {
    size_t temp_bytes = 0;
    cub::DeviceReduce::Reduce(nullptr, temp_bytes, input, output, N, add(), 0.0f);
}
