// expect: WA race
// Mistake: the shared-memory tree stops calling __syncthreads once 32 threads remain, assuming a warp runs in lockstep; the last steps race (reads see values not yet written, or already updated again).
#include <cuda_runtime.h>

constexpr int BLOCK = 256;

__global__ void reduce_tree(const float* in, float* out, int n) {
    __shared__ float sm[BLOCK];
    const int tid = threadIdx.x;
    float acc = 0.0f;
    for (int i = blockIdx.x * BLOCK + tid; i < n; i += gridDim.x * BLOCK)
        acc += in[i];
    sm[tid] = acc;
    __syncthreads();
    for (int s = BLOCK / 2; s > 32; s >>= 1) {
        if (tid < s) sm[tid] += sm[tid + s];
        __syncthreads();
    }
    if (tid < 32) {
        // "one warp, so no barrier needed" -- wrong: no __syncwarp, no volatile
        sm[tid] += sm[tid + 32];
        sm[tid] += sm[tid + 16];
        sm[tid] += sm[tid + 8];
        sm[tid] += sm[tid + 4];
        sm[tid] += sm[tid + 2];
        sm[tid] += sm[tid + 1];
    }
    if (tid == 0) atomicAdd(out, sm[0]);
}

extern "C" void solve(const float* input, float* output, int N) {
    cudaMemsetAsync(output, 0, sizeof(float));
    int grid = (N + BLOCK - 1) / BLOCK;
    if (grid > 1024) grid = 1024;
    reduce_tree<<<grid, BLOCK>>>(input, output, N);
}
