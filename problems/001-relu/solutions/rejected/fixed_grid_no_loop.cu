// expect: WA
// Mistake: a fixed grid of 1024 x 256 threads with one element per thread and no grid-stride loop; elements past 262144 are never written.
#include <cuda_runtime.h>

__global__ void relu(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = fmaxf(in[i], 0.0f);
    // missing: for (...; i < n; i += gridDim.x * blockDim.x)
}

extern "C" void solve(const float* input, float* output, int N) {
    relu<<<1024, 256>>>(input, output, N);
}
