// Built-in names as host locals initialised from a variable and a constant (read by a parser as
// function declarations, by a compiler as variables).
#include <cuda_runtime.h>

constexpr int THREADS = 128;

__global__ void relu_kernel(const float* input, float* output, int N) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) output[i] = fmaxf(input[i], 0.0f);
}

extern "C" void solve(const float* input, float* output, int N) {
    int threads = THREADS;
    dim3 blockDim(threads);
    dim3 gridDim((N + threads - 1) / threads);
    dim3 spare(THREADS);
    relu_kernel<<<gridDim, blockDim>>>(input, output, N);
    (void)spare;
}
