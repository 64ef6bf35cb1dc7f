// expect: error "expected a \";\""
// A missing semicolon inside a kernel is reported at its line by the device compiler.
#include <cuda_runtime.h>

__global__ void double_it(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x
    if (i < n) out[i] = 2 * in[i];  // <- error
}

extern "C" void solve(const int* input, int* output, int n) {
    double_it<<<(n + 255) / 256, 256>>>(input, output, n);
}
