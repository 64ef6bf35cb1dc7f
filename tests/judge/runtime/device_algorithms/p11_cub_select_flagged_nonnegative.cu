// verdict: WA. Flags A[i] >= 0: zeros are kept too.
#include <cub/device/device_select.cuh>

__global__ void nonnegative(const float* a, int* flags, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) flags[i] = a[i] >= 0.0f;
}

extern "C" void solve(const float* A, int N, float* out) {
    int *flags, *kept;
    cudaMalloc(&flags, N * sizeof(int));
    cudaMalloc(&kept, sizeof(int));
    nonnegative<<<(N + 255) / 256, 256>>>(A, flags, N);
    size_t temp_bytes = 0;
    cub::DeviceSelect::Flagged(nullptr, temp_bytes, A, flags, out, kept, N);
    void* d_temp;
    cudaMalloc(&d_temp, temp_bytes);
    cub::DeviceSelect::Flagged(d_temp, temp_bytes, A, flags, out, kept, N);
    cudaFree(d_temp);
    cudaFree(kept);
    cudaFree(flags);
}
