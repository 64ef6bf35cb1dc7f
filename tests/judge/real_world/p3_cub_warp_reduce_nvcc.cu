// Style: CUB WarpReduce/BlockReduce in device code, nvcc spellings on the host (dim3 blockDim/gridDim, min, uint).
#include <cuda_runtime.h>
#include <cub/warp/warp_reduce.cuh>
#include <cub/block/block_reduce.cuh>
#include <cuda/std/functional>

constexpr int BLOCK = 256;
constexpr int NWARPS = BLOCK / 32;
constexpr int MAX_BLOCKS = 1024;

// pass 1: every block writes one partial sum (two levels of WarpReduce)
__global__ void partialSums(const float* __restrict__ x, float* __restrict__ partial, uint n) {
    using WarpReduce = cub::WarpReduce<float>;
    __shared__ typename WarpReduce::TempStorage warpTemp[NWARPS];
    __shared__ float warpSums[NWARPS];

    uint lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    float acc = 0.0f;
    for (uint i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        acc += x[i];

    float w = WarpReduce(warpTemp[warp]).Reduce(acc, cuda::std::plus<>{});
    if (lane == 0) warpSums[warp] = w;   // the warp total is only valid in lane 0
    __syncthreads();

    if (warp == 0) {
        float v = lane < NWARPS ? warpSums[lane] : 0.0f;
        // warpTemp[0] was used above by warp 0 only, and the barrier separates the two uses
        float total = WarpReduce(warpTemp[0]).Sum(v);
        if (lane == 0) partial[blockIdx.x] = total;
    }
}

// pass 2: a single block adds the partials
__global__ void finalSum(const float* __restrict__ partial, float* __restrict__ out, int count) {
    using BlockReduce = cub::BlockReduce<float, 1024>;
    __shared__ typename BlockReduce::TempStorage temp;
    float v = threadIdx.x < count ? partial[threadIdx.x] : 0.0f;
    float total = BlockReduce(temp).Reduce(v, cuda::std::plus<>{});
    if (threadIdx.x == 0) out[0] = total;
}

extern "C" void solve(const float* input, float* output, int N) {
    dim3 blockDim(256);   // must match BLOCK
    dim3 gridDim(min((N + (int)blockDim.x - 1) / (int)blockDim.x, MAX_BLOCKS));

    float* partial;
    cudaMalloc(&partial, gridDim.x * sizeof(float));
    partialSums<<<gridDim, blockDim>>>(input, partial, (uint)N);
    finalSum<<<1, 1024>>>(partial, output, gridDim.x);
    cudaFree(partial);
}
