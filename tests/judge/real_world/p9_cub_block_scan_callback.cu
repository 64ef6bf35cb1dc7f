// Style: CUB block primitives -- BlockLoad/BlockStore, BlockReduce, BlockScan with a running-prefix callback.
#include <cuda_runtime.h>
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cuda/std/functional>

constexpr int THREADS = 256;
constexpr int ITEMS = 4;
constexpr int TILE = THREADS * ITEMS;   // 1024 floats per tile
constexpr int SCAN_THREADS = 1024;      // the tile totals are scanned by one block, in chunks

// Pass 1: the total of every tile.
__global__ void tileTotals(const float* in, float* totals, int n) {
    using BlockReduce = cub::BlockReduce<float, THREADS>;
    __shared__ typename BlockReduce::TempStorage temp;
    const long long base = (long long)blockIdx.x * TILE;
    const int valid = (int)min((long long)TILE, n - base);
    float items[ITEMS];
    cub::LoadDirectBlocked(threadIdx.x, in + base, items, valid, 0.0f);
    float mine = 0.0f;
    for (int i = 0; i < ITEMS; ++i) mine += items[i];
    float total = BlockReduce(temp).Reduce(mine, cuda::std::plus<>{});
    if (threadIdx.x == 0) totals[blockIdx.x] = total;   // only thread 0 has the total
}

// Keeps the sum of all earlier chunks; BlockScan calls it with each chunk's aggregate.
struct RunningPrefix {
    float running;
    __device__ explicit RunningPrefix(float start) : running(start) {}
    __device__ float operator()(float chunk_total) {
        float before = running;
        running += chunk_total;
        return before;
    }
};

// Pass 2: exclusive scan of the tile totals, in place, by a single block.
__global__ void scanTotals(float* totals, int count) {
    using BlockScan = cub::BlockScan<float, SCAN_THREADS>;
    __shared__ typename BlockScan::TempStorage temp;
    RunningPrefix prefix(0.0f);
    for (int start = 0; start < count; start += SCAN_THREADS) {
        int i = start + threadIdx.x;
        float v = i < count ? totals[i] : 0.0f;
        float excl;
        BlockScan(temp).ExclusiveScan(v, excl, cuda::std::plus<>{}, prefix);
        if (i < count) totals[i] = excl;
        __syncthreads();   // temp is reused by the next chunk
    }
}

// Pass 3: scan every tile again and add the sum of the tiles before it.
__global__ void scanTiles(const float* in, float* out, const float* offsets, int n) {
    using Load = cub::BlockLoad<float, THREADS, ITEMS, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using Store = cub::BlockStore<float, THREADS, ITEMS, cub::BLOCK_STORE_WARP_TRANSPOSE>;
    using Scan = cub::BlockScan<float, THREADS>;
    __shared__ union {
        typename Load::TempStorage load;
        typename Scan::TempStorage scan;
        typename Store::TempStorage store;
    } temp;

    const long long base = (long long)blockIdx.x * TILE;
    const int valid = (int)min((long long)TILE, n - base);
    float items[ITEMS];
    Load(temp.load).Load(in + base, items, valid, 0.0f);
    __syncthreads();
    Scan(temp.scan).InclusiveSum(items, items);
    __syncthreads();
    const float offset = offsets[blockIdx.x];
    for (int i = 0; i < ITEMS; ++i) items[i] += offset;
    Store(temp.store).Store(out + base, items, valid);
}

extern "C" void solve(const float* input, float* output, int N) {
    const int tiles = (N + TILE - 1) / TILE;
    float* totals = nullptr;
    cudaMalloc(&totals, tiles * sizeof(float));
    tileTotals<<<tiles, THREADS>>>(input, totals, N);
    scanTotals<<<1, SCAN_THREADS>>>(totals, tiles);
    scanTiles<<<tiles, THREADS>>>(input, output, totals, N);
    cudaFree(totals);
}
