#include <cuda_runtime.h>

__global__ void block_sum(const float* in, float* out, int n) {
    __shared__ float partial[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;                       // threads past the end leave early ...
    partial[threadIdx.x] = in[i];
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        __syncthreads();                      // ... and never reach this barrier
        if (threadIdx.x < stride && i + stride < n) partial[threadIdx.x] += partial[threadIdx.x + stride];
    }
    if (threadIdx.x == 0) atomicAdd(out, partial[0]);
}

extern "C" void solve(const float* input, float* output, int N) {
    cudaMemset(output, 0, sizeof(float));
    block_sum<<<(N + 255) / 256, 256>>>(input, output, N);
}
