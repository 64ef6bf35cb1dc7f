// expect: WA
// message: wrote to its input
// what: writing into the const input
#include <cuda_runtime.h>

__global__ void relu(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = fmaxf(in[i], 0.0f);
}

// The attack's success would change the answer: a succeeded attack gives WA, a blocked one AC.
static void answer(const float* input, float* output, int N, bool escaped) {
    relu<<<(N + 255) / 256, 256>>>(input, escaped ? output + 1 : output, escaped ? N - 1 : N);
}

__global__ void scribble(float* in) { in[0] = -12345.0f; }

extern "C" void solve(const float* input, float* output, int N) {
    scribble<<<1, 1>>>(const_cast<float*>(input));
    answer(input, output, N, false);
}
