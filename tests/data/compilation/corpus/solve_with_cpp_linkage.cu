// expect: ok
#include <cuda_runtime.h>

__global__ void copy(const int* input, int* output, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) output[i] = input[i];
}

void solve(const int* input, int* output, int n) {
    copy<<<(n + 255) / 256, 256>>>(input, output, n);
}
