// expect: error "expected"
// A syntax error in host code is reported at its line by the host compiler.
#include <cuda_runtime.h>

__global__ void double_it(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2 * in[i];
}

extern "C" void solve(const int* input, int* output, int n) {
    int grid = (n + 255) / 256  // <- error
    double_it<<<grid, 256>>>(input, output, n);
}
