// Out-of-bounds accesses that only AddressSanitizer sees: inside the payload of a larger
// host allocation, and past a cudaMalloc'd buffer.
#include <cuda_runtime.h>

__global__ void shift_right(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i + 1] = in[i];
}

extern "C" void solve_shift(const float* in, int n) {
    float* out = nullptr;
    cudaMalloc(&out, n * sizeof(float));
    shift_right<<<(n + 127) / 128, 128>>>(in, out, n);
    cudaFree(out);
}

__global__ void copy(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}

extern "C" void solve_copy(const float* in, float* out, int n) {
    copy<<<(n + 127) / 128, 128>>>(in, out, n);
}
