// expect: TLE
// message: deadlock
// what: __syncthreads() inside a branch only some threads take
#include <cuda_runtime.h>

__global__ void relu(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = fmaxf(in[i], 0.0f);
}

// The attack's success would change the answer: a succeeded attack gives WA, a blocked one AC.
static void answer(const float* input, float* output, int N, bool escaped) {
    relu<<<(N + 255) / 256, 256>>>(input, escaped ? output + 1 : output, escaped ? N - 1 : N);
}

__global__ void stuck(float* out) {
    if (threadIdx.x < 32) { __syncthreads(); out[0] = 1.0f; }
    else { __syncthreads(); out[1] = 1.0f; }
}

extern "C" void solve(const float* input, float* output, int N) {
    stuck<<<1, 64>>>(output);
    answer(input, output, N, false);
}
