// expect: WA
// Mistake: BlockReduce gives the block's total to thread 0 only; thread 32 holds just its own warp's partial sum (and on the CPU backend, an undefined value), so the sum added is wrong.
#include <cuda_runtime.h>
#include <cub/block/block_reduce.cuh>

constexpr int BLOCK = 256;

__global__ void block_sums(const float* __restrict__ in, float* __restrict__ out, int n) {
    using BlockReduce = cub::BlockReduce<float, BLOCK>;
    __shared__ typename BlockReduce::TempStorage temp;
    int i = blockIdx.x * BLOCK + threadIdx.x;
    float total = BlockReduce(temp).Sum(i < n ? in[i] : 0.0f);
    if (threadIdx.x == 32) atomicAdd(out, total);
}

extern "C" void solve(const float* input, float* output, int N) {
    cudaMemsetAsync(output, 0, sizeof(float));
    if (N <= 0) return;
    block_sums<<<(N + BLOCK - 1) / BLOCK, BLOCK>>>(input, output, N);
}
