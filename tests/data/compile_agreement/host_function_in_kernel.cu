// expect: CE
#include <cuda_runtime.h>

float host_only(float x) { return x > 0 ? x : 0; }

__global__ void relu_kernel(const float* input, float* output, int N) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) output[i] = host_only(input[i]);
}

extern "C" void solve(const float* input, float* output, int N) {
    relu_kernel<<<(N + 255) / 256, 256>>>(input, output, N);
}
