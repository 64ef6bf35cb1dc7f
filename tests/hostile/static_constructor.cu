// expect: AC
// what: system() from a static constructor, run when the library is loaded
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

static bool escaped_at_load = system("echo escaped > /tmp/escaped") == 0;

extern "C" void solve(const float* input, float* output, int N) {
    answer(input, output, N, escaped_at_load);
}
