#include <cuda_runtime.h>
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>

// Reduce-then-scan with CUB's block primitives: each block scans its tile of BLOCK x ITEMS
// values (BlockScan, blocked arrangement) and records the tile's total; one block scans the
// totals in place (it loops over them tile by tile, carrying a running prefix through the
// BlockScan callback); every tile then adds the totals of the tiles before it.

constexpr int BLOCK = 256;
constexpr int ITEMS = 4;
constexpr int TILE = BLOCK * ITEMS;

using Scan = cub::BlockScan<float, BLOCK>;

__global__ void scan_tiles(const float* in, float* out, float* tile_totals, int n) {
    __shared__ typename Scan::TempStorage temp;
    const int base = blockIdx.x * TILE;
    float items[ITEMS];
    cub::LoadDirectBlocked(threadIdx.x, in + base, items, n - base, 0.0f);
    float total;
    Scan(temp).InclusiveSum(items, items, total);
    cub::StoreDirectBlocked(threadIdx.x, out + base, items, n - base);
    if (threadIdx.x == 0) tile_totals[blockIdx.x] = total;
}

struct RunningPrefix {
    float sum;
    __device__ float operator()(float tile_total) {
        float before = sum;
        sum += tile_total;
        return before;
    }
};

__global__ void scan_totals(float* totals, int count) {
    __shared__ typename Scan::TempStorage temp;
    RunningPrefix prefix{0.0f};
    for (int base = 0; base < count; base += BLOCK) {
        int i = base + threadIdx.x;
        float value = i < count ? totals[i] : 0.0f;
        float before;
        Scan(temp).ExclusiveSum(value, before, prefix);
        __syncthreads();   // the next round reuses temp
        if (i < count) totals[i] = before;
    }
}

__global__ void add_prefixes(float* out, const float* prefixes, int n) {
    const int base = blockIdx.x * TILE;
    float before = prefixes[blockIdx.x];
    for (int k = threadIdx.x; k < TILE && base + k < n; k += BLOCK) out[base + k] += before;
}

extern "C" void solve(const float* input, float* output, int N) {
    if (N <= 0) return;
    int tiles = (N + TILE - 1) / TILE;
    float* totals = nullptr;
    cudaMalloc(&totals, tiles * sizeof(float));
    scan_tiles<<<tiles, BLOCK>>>(input, output, totals, N);
    if (tiles > 1) {
        scan_totals<<<1, BLOCK>>>(totals, tiles);
        add_prefixes<<<tiles, BLOCK>>>(output, totals, N);
    }
    cudaFree(totals);
}
