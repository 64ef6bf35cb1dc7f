// expect: error "BlockReduce"
// A misuse of a CUB template is reported at the user's line, not deep inside CUB.
#include <cub/block/block_reduce.cuh>

__global__ void sums(const int* in, int* out, int n) {
    using Reduce = cub::BlockReduce<int, 256>;
    __shared__ typename Reduce::TempStorage storage;
    int total = Reduce(storage).Sum(in[threadIdx.x], n, 3, 4);  // <- error
    if (threadIdx.x == 0) out[blockIdx.x] = total;
}

extern "C" void solve(const int* input, int* output, int n) { sums<<<1, 256>>>(input, output, n); }
