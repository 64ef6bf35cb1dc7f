// expect: error "no definition of solve found"
#include <cuda_runtime.h>

__global__ void double_it(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2 * in[i];
}

extern "C" void run(const int* input, int* output, int n) {
    double_it<<<(n + 255) / 256, 256>>>(input, output, n);
}
