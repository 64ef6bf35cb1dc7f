// expect: ok
// Dynamic shared memory through extern __shared__, sized at launch.
#include <cuda_runtime.h>

__global__ void reverse_block(const int* in, int* out, int n) {
    extern __shared__ int buffer[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    buffer[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    if (i < n) out[i] = buffer[blockDim.x - 1 - threadIdx.x];
}

extern "C" void solve(const int* input, int* output, int n) {
    const int block = 256;
    reverse_block<<<(n + block - 1) / block, block, block * sizeof(int)>>>(input, output, n);
}
