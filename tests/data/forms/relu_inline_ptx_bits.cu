// Inline PTX moves bits between float and integer registers: the CPU backend keeps the bits too.
#include <cuda_runtime.h>
__global__ void relu_kernel(const float* input, float* output, int N) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N) return;
    unsigned bits;
    asm("mov.b32 %0, %1;" : "=r"(bits) : "f"(input[i]));
    float back;
    asm("mov.b32 %0, %1;" : "=f"(back) : "r"(bits & 0x7fffffffu));
    float y = (bits >> 31) ? 0.0f : back;
    asm volatile("st.global.f32 [%0], %1;" :: "l"(output + i), "f"(y));
}
extern "C" void solve(const float* input, float* output, int N) {
    relu_kernel<<<(N + 255) / 256, 256>>>(input, output, N);
}
