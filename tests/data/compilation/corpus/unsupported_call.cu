// expect: error "cudaMallocManaged is not supported by the judge"
#include <cuda_runtime.h>

__global__ void fill(int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = i;
}

extern "C" void solve(const int* input, int* output, int n) {
    int* scratch = nullptr;
    cudaMallocManaged(&scratch, n * sizeof(int));  // <- error
    fill<<<(n + 255) / 256, 256>>>(output, n);
}
