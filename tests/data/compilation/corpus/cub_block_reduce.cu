// expect: ok
// CUB's BlockReduce in device code.
#include <cub/block/block_reduce.cuh>
#include <cuda_runtime.h>

template <int BLOCK>
__global__ void block_sums(const int* in, int* out, int n) {
    using Reduce = cub::BlockReduce<int, BLOCK>;
    __shared__ typename Reduce::TempStorage storage;
    int i = blockIdx.x * BLOCK + threadIdx.x;
    int total = Reduce(storage).Sum(i < n ? in[i] : 0);
    if (threadIdx.x == 0) out[blockIdx.x] = total;
}

extern "C" void solve(const int* input, int* output, int n) {
    block_sums<256><<<(n + 255) / 256, 256>>>(input, output, n);
}
