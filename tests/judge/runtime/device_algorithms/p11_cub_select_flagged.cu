// verdict: AC. Flags A[i] > 0, then cub::DeviceSelect::Flagged keeps the flagged items in order.
#include <cub/device/device_select.cuh>

__global__ void positive(const float* a, char* flags, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) flags[i] = a[i] > 0.0f;
}

extern "C" void solve(const float* A, int N, float* out) {
    char* flags;
    int* kept;
    cudaMalloc(&flags, N);
    cudaMalloc(&kept, sizeof(int));
    positive<<<(N + 255) / 256, 256>>>(A, flags, N);
    size_t temp_bytes = 0;
    cub::DeviceSelect::Flagged(nullptr, temp_bytes, A, flags, out, kept, N);
    void* d_temp;
    cudaMalloc(&d_temp, temp_bytes);
    cub::DeviceSelect::Flagged(d_temp, temp_bytes, A, flags, out, kept, N);
    cudaFree(d_temp);
    cudaFree(kept);
    cudaFree(flags);
}
