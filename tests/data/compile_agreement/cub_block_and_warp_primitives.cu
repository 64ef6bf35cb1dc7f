// expect: builds
#include <cuda_runtime.h>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>
#include <cuda/std/functional>
#include <cuda/functional>

constexpr int B = 128;
__global__ void k(const float* in, float* out, int n) {
    using Reduce = cub::BlockReduce<float, B>;
    using Scan = cub::BlockScan<int, B>;
    using Sort = cub::BlockRadixSort<float, B, 2, int>;
    using WR = cub::WarpReduce<float>;
    using WS = cub::WarpScan<int, 16>;
    __shared__ union { typename Reduce::TempStorage r; typename Scan::TempStorage s; typename Sort::TempStorage so; } temp;
    __shared__ typename WR::TempStorage wr[B / 32];
    __shared__ typename WS::TempStorage ws[B / 16];
    int i = blockIdx.x * B + threadIdx.x;
    float x = i < n ? in[i] : 0.0f;
    float total = Reduce(temp.r).Sum(x);
    __syncthreads();
    float m = Reduce(temp.r).Reduce(x, cuda::maximum<>{}, min(n - blockIdx.x * B, B));
    __syncthreads();
    int ex, agg;
    Scan(temp.s).ExclusiveSum(1, ex, agg);
    __syncthreads();
    float keys[2] = {x, -x};
    int vals[2] = {i, -i};
    Sort(temp.so).Sort(keys, vals);
    __syncthreads();
    float w = WR(wr[threadIdx.x / 32]).Sum(x);
    int sc;
    WS(ws[threadIdx.x / 16]).InclusiveSum(1, sc);
    float items[2];
    cub::LoadDirectBlocked(threadIdx.x, in + blockIdx.x * B * 2, items, n - (int)blockIdx.x * B * 2, 0.0f);
    if (i < n) out[i] = fmaxf(x, 0.0f) + 0.0f * (total + m + ex + agg + keys[0] + vals[0] + w + sc + items[0]);
}

extern "C" void solve(const float* input, float* output, int N) { k<<<(N + B - 1) / B, B>>>(input, output, N); }
