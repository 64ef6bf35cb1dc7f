// expect: error "'grid_size' was not declared in this scope"
#include <cuda_runtime.h>

__global__ void scale(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * 2;
}

extern "C" void solve(const int* input, int* output, int n) {
    scale<<<grid_size, 256>>>(input, output, n);  // <- error
}
