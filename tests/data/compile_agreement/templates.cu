// expect: builds
#include <cuda_runtime.h>

template <typename T, int BLOCK>
__global__ void relu_kernel(const T* __restrict__ input, T* __restrict__ output, int n) {
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i < n) output[i] = input[i] > T(0) ? input[i] : T(0);
}

template <typename T>
struct Launcher {
    static constexpr int block = 128;
    static void run(const T* in, T* out, int n) { relu_kernel<T, block><<<(n + block - 1) / block, block>>>(in, out, n); }
};

extern "C" void solve(const float* input, float* output, int N) { Launcher<float>::run(input, output, N); }
