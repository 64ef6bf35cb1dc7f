// expect: builds
#include <cuda_runtime.h>

__global__ void relu_kernel(const float* input, float* output, int N) {
    __shared__ float tile[256];
    extern __shared__ float spare[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = i < N ? input[i] : 0.0f;
    spare[threadIdx.x] = 0.0f;
    __syncthreads();
    if (i < N) output[i] = fmaxf(tile[threadIdx.x], spare[threadIdx.x]);
}

extern "C" void solve(const float* input, float* output, int N) {
    relu_kernel<<<(N + 255) / 256, 256, 256 * sizeof(float)>>>(input, output, N);
}
