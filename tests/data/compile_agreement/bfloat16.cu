// expect: builds
#include <cuda_runtime.h>
#include <cuda_bf16.h>

__global__ void relu_kernel(const float* input, float* output, int N) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N) return;
    __nv_bfloat16 b = __float2bfloat16(input[i]);
    output[i] = __bfloat162float(b) > 0.0f ? input[i] : 0.0f;
}

extern "C" void solve(const float* input, float* output, int N) {
    relu_kernel<<<(N + 255) / 256, 256>>>(input, output, N);
}
