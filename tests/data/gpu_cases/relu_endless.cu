#include <cuda_runtime.h>

__global__ void relu(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    while (in[0] == in[0] || i >= 0) { if (i < n) out[i] = fmaxf(in[i], 0.0f); }   // never ends
}

extern "C" void solve(const float* input, float* output, int N) {
    relu<<<(N + 255) / 256, 256>>>(input, output, N);
}
