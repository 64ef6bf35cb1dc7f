// expect: builds
#include <cuda_runtime.h>

__global__ void relu_kernel(const float* input, float* output, uint N) {
    uint i = blockIdx.x * blockDim.x + threadIdx.x;
    ushort lane = threadIdx.x % 32;
    float big = __FLT_MAX__ + 0.0f * __DBL_EPSILON__ + (__INT_MAX__ > 0 ? 0.0f : 1.0f);
    if (i < N) output[i] = fminf(fmaxf(input[i], 0.0f), big) + 0.0f * lane;
}

extern "C" void solve(const float* input, float* output, int N) {
    int block = min(256, max(32, N));
    relu_kernel<<<(N + block - 1) / block, block>>>(input, output, N);
}
