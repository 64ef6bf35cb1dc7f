#include <cuda_runtime.h>
#include <cub/block/block_reduce.cuh>

// CUB's BlockReduce does the in-block reduction: each thread first sums a grid-stride slice in
// a register, the block reduces those partials, and thread 0 (the only thread BlockReduce gives
// the total to) adds it to the zeroed output.

constexpr int BLOCK = 256;
constexpr int MAX_GRID = 132 * 4;

__global__ void block_sums(const float* __restrict__ in, float* __restrict__ out, int n) {
    using BlockReduce = cub::BlockReduce<float, BLOCK>;
    __shared__ typename BlockReduce::TempStorage temp;

    float partial = 0.0f;
    for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK)
        partial += in[i];
    float total = BlockReduce(temp).Sum(partial);
    if (threadIdx.x == 0) atomicAdd(out, total);
}

extern "C" void solve(const float* input, float* output, int N) {
    cudaMemsetAsync(output, 0, sizeof(float));
    if (N <= 0) return;
    int blocks = (N + BLOCK - 1) / BLOCK;
    block_sums<<<blocks < MAX_GRID ? blocks : MAX_GRID, BLOCK>>>(input, output, N);
}
