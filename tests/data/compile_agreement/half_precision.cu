// expect: builds
#include <cuda_runtime.h>
#include <cuda_fp16.h>

__global__ void relu_kernel(const float* input, float* output, int N) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N) return;
    __half zero = __float2half(0.0f);
    __half h = __float2half(input[i]);
    bool positive = __hgt(h, zero);
    output[i] = positive ? input[i] : 0.0f;
}

extern "C" void solve(const float* input, float* output, int N) {
    relu_kernel<<<(N + 255) / 256, 256>>>(input, output, N);
}
