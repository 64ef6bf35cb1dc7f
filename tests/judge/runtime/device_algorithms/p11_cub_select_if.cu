// verdict: AC. cub::DeviceSelect::If with a selection functor, through both phases.
#include <cub/device/device_select.cuh>

struct GreaterThan {
    float threshold;
    __host__ __device__ bool operator()(const float& x) const { return x > threshold; }
};

extern "C" void solve(const float* A, int N, float* out) {
    int* kept;
    cudaMalloc(&kept, sizeof(int));
    size_t temp_bytes = 0;
    cub::DeviceSelect::If(nullptr, temp_bytes, A, out, kept, N, GreaterThan{0.0f});
    void* d_temp;
    cudaMalloc(&d_temp, temp_bytes);
    cub::DeviceSelect::If(d_temp, temp_bytes, A, out, kept, N, GreaterThan{0.0f});
    cudaFree(d_temp);
    cudaFree(kept);
}
