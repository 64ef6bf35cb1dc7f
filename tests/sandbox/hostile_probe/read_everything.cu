// Tries to read files the sandbox must hide; the output is wrong if any of them is readable.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void relu(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = fmaxf(in[i], 0.0f);
}

static bool any_readable() {
    const char* paths[] = {"/etc/passwd", "/etc/hostname", "@OTHER_SUBMISSION@", "@REPO@/.git/config", "@REPO@/README.md",
                           "@REPO@/problems/001-relu/reference.py", "@OUTSIDE@/visible", "/var/log"};
    for (const char* p : paths) {
        if (FILE* f = fopen(p, "r")) { fclose(f); return true; }
    }
    return false;
}

extern "C" void solve(const float* input, float* output, int N) {
    bool leaked = any_readable();
    relu<<<(N + 255) / 256, 256>>>(input, leaked ? output + 1 : output, leaked ? N - 1 : N);
}
