// expect: RE
// message: SIGABRT
// what: allocating host memory until it runs out
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

__global__ void relu(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = fmaxf(in[i], 0.0f);
}

// The attack's success would change the answer: a succeeded attack gives WA, a blocked one AC.
static void answer(const float* input, float* output, int N, bool escaped) {
    relu<<<(N + 255) / 256, 256>>>(input, escaped ? output + 1 : output, escaped ? N - 1 : N);
}

extern "C" void solve(const float* input, float* output, int N) {
    for (;;) { char* p = new char[1 << 30]; p[0] = 1; }
    answer(input, output, N, false);
}
