// expect: error "too few arguments"
#include <cuda_runtime.h>

__global__ void add(const int* a, int* out, int n, int value) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] + value;
}

extern "C" void solve(const int* input, int* output, int n) {
    add<<<(n + 255) / 256, 256>>>(input, output, n);  // <- error
}
