// expect: builds
#include <cuda_runtime.h>

static int round_up(int n, int m) { return (n + m - 1) / m * m; }

struct Plan {
    int blocks;
    static Plan for_size(int n) { return Plan{round_up(n, 256) / 256}; }
};

constexpr int threads() { return 256; }

__global__ void relu_kernel(const float* input, float* output, int N) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) output[i] = fmaxf(input[i], 0.0f);
}

extern "C" void solve(const float* input, float* output, int N) {
    relu_kernel<<<Plan::for_size(N).blocks, threads()>>>(input, output, N);
}
