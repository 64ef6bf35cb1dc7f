// expect: builds
#include <cuda_runtime.h>

__global__ void relu_kernel(const float* input, float* output, int N) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = i < N ? input[i] : 0.0f;
    unsigned positive = __ballot_sync(0xffffffffu, x > 0.0f);
    float first = __shfl_sync(0xffffffffu, x, 0);
    float next = __shfl_down_sync(0xffffffffu, x, 1);
    int lanes = __popc(positive);
    if (i < N) output[i] = fmaxf(x, 0.0f) + 0.0f * (first + next + lanes);
}

extern "C" void solve(const float* input, float* output, int N) {
    relu_kernel<<<(N + 255) / 256, 256>>>(input, output, N);
}
