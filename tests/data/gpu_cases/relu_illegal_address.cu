#include <cuda_runtime.h>

__global__ void relu_wild(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float* wild = reinterpret_cast<float*>(0x10);
    if (i < n) wild[i] = fmaxf(in[i], 0.0f);
}

extern "C" void solve(const float* input, float* output, int N) {
    relu_wild<<<(N + 255) / 256, 256>>>(input, output, N);
}
