#include <cuda_runtime.h>

__global__ void relu(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = fmaxf(in[i], 0.0f);
}

// After a right answer, the last input element is overwritten.
__global__ void scribble(float* in, int n) { in[n - 1] = -12345.0f; }

extern "C" void solve(const float* input, float* output, int N) {
    relu<<<(N + 255) / 256, 256>>>(input, output, N);
    scribble<<<1, 1>>>(const_cast<float*>(input), N);
}
