// expect: error "kernel 'fill' is overloaded"
#include <cuda_runtime.h>

__global__ void fill(int* out, int n) {
    if (threadIdx.x < n) out[threadIdx.x] = 1;
}

__global__ void fill(float* out, int n) {  // <- error
    if (threadIdx.x < n) out[threadIdx.x] = 1.0f;
}

extern "C" void solve(const int* input, int* output, int n) { fill<<<1, 32>>>(output, n); }
