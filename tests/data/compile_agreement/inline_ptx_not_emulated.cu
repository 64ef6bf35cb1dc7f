// expect: CE
// Valid PTX the CPU backend does not emulate is refused on both backends alike, naming it.
#include <cuda_runtime.h>

__global__ void relu_kernel(const float* input, float* output, int N) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned long long t = i + 1u;
    unsigned bit;
    asm volatile("bfind.u64 %0, %1;" : "=r"(bit) : "l"(t));
    if (i < N) output[i] = fmaxf(input[i], 0.0f) + 0.0f * bit;
}

extern "C" void solve(const float* input, float* output, int N) {
    relu_kernel<<<(N + 255) / 256, 256>>>(input, output, N);
}
