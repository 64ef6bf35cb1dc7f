// expect: error "identifier \"scale_factor\" is undefined"
#include <cuda_runtime.h>

__global__ void scale(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * scale_factor;  // <- error
}

extern "C" void solve(const int* input, int* output, int n) {
    scale<<<(n + 255) / 256, 256>>>(input, output, n);
}
