// verdict: RE. The storage is a few bytes short of what the size query asked for.
#include <cub/device/device_select.cuh>

struct Positive {
    __device__ bool operator()(float x) const { return x > 0.0f; }
};

extern "C" void solve(const float* A, int N, float* out) {
    int* kept; cudaMalloc(&kept, sizeof(int)); size_t temp_bytes = 0; void* d_temp; cub::DeviceSelect::If(nullptr, temp_bytes, A, out, kept, N, Positive()); cudaMalloc(&d_temp, temp_bytes);
    cub::DeviceSelect::If(d_temp, temp_bytes -= 8, A, out, kept, N, Positive());
}
