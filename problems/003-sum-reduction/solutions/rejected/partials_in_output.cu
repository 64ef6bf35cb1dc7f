// expect: RE
// Mistake: uses output as scratch for the per-block partial sums (output[blockIdx.x]), but output holds one float; with more than one block the partials are written past its end.
#include <cuda_runtime.h>

constexpr int BLOCK = 256;

__global__ void block_partials(const float* in, float* partial, int n) {
    __shared__ float sm[BLOCK];
    const int tid = threadIdx.x;
    float acc = 0.0f;
    for (int i = blockIdx.x * BLOCK + tid; i < n; i += gridDim.x * BLOCK)
        acc += in[i];
    sm[tid] = acc;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (tid < s) sm[tid] += sm[tid + s];
        __syncthreads();
    }
    if (tid == 0) partial[blockIdx.x] = sm[0];
}

__global__ void sum_partials(float* partial, int count) {
    if (threadIdx.x == 0) {
        float total = 0.0f;
        for (int b = 0; b < count; ++b) total += partial[b];
        partial[0] = total;
    }
}

extern "C" void solve(const float* input, float* output, int N) {
    int grid = (N + BLOCK - 1) / BLOCK;
    if (grid > 64) grid = 64;
    block_partials<<<grid, BLOCK>>>(input, output, N);   // output[1..grid-1] do not exist
    sum_partials<<<1, 32>>>(output, grid);
}
