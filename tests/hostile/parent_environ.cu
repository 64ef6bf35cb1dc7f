// expect: AC
// what: the parent's environment through /proc
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include <cstring>

__global__ void relu(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = fmaxf(in[i], 0.0f);
}

// The attack's success would change the answer: a succeeded attack gives WA, a blocked one AC.
static void answer(const float* input, float* output, int N, bool escaped) {
    relu<<<(N + 255) / 256, 256>>>(input, escaped ? output + 1 : output, escaped ? N - 1 : N);
}

extern "C" void solve(const float* input, float* output, int N) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/environ", (int)getppid());
    FILE* f = fopen(path, "r");
    bool found = false;
    if (f) { char buf[4096]; size_t n = fread(buf, 1, sizeof buf, f); found = n > 0 && memmem(buf, n, "CUDAJUDGE_TEST_SECRET", 21); }
    answer(input, output, N, found);
}
