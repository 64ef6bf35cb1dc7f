// expect: error "parameter 2 ('output') has type 'float*', expected 'int*'"
#include <cuda_runtime.h>

__global__ void convert(const int* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}

extern "C" void solve(const int* input, float* output, int n) {  // <- error
    convert<<<(n + 255) / 256, 256>>>(input, output, n);
}
