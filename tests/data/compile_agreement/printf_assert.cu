// expect: builds
#include <cuda_runtime.h>
#include <cstdio>
#include <cassert>

__global__ void relu_kernel(const float* input, float* output, int N) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(N >= 0);
    if (i == -1) printf("never %d\n", i);
    if (i < N) output[i] = fmaxf(input[i], 0.0f);
}

extern "C" void solve(const float* input, float* output, int N) {
    if (N < 0) { fprintf(stderr, "bad N\n"); return; }
    relu_kernel<<<(N + 255) / 256, 256>>>(input, output, N);
}
