// expect: error "invalid conversion from 'const int*' to 'int*'"
// Arguments are converted to the kernel's parameter types as in a call, so a dropped const is caught.
#include <cuda_runtime.h>

__global__ void negate(int* data, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] = -data[i];
}

extern "C" void solve(const int* input, int* output, int n) {
    negate<<<(n + 255) / 256, 256>>>(input, n);  // <- error
}
