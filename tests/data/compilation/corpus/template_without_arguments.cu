// expect: error "launched without template arguments"
#include <cuda_runtime.h>

template <typename T>
__global__ void copy(const T* in, T* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}

extern "C" void solve(const int* input, int* output, int n) {
    copy<<<(n + 255) / 256, 256>>>(input, output, n);  // <- error
}
