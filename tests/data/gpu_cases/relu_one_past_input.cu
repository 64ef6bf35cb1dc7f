#include <cuda_runtime.h>

// Right outputs, and one element written past the end of the input: its guard bytes change, its payload does not.
__global__ void relu(float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = fmaxf(in[i], 0.0f);
    if (i == 0) in[n] = 1.0f;
}

extern "C" void solve(const float* input, float* output, int N) {
    relu<<<(N + 255) / 256, 256>>>(const_cast<float*>(input), output, N);
}
