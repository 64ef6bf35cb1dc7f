// expect: AC
// what: writing a file outside the sandbox (the test checks it never appears)
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
    FILE* f = fopen("@OUTSIDE@/escaped", "w");
    bool wrote = f != nullptr && fputs("escaped", f) >= 0;
    if (f) fclose(f);
    answer(input, output, N, wrote);
}
