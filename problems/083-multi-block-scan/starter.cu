#include <cuda_runtime.h>

// Exclusive prefix sum: output[i] = input[0] + ... + input[i-1], and output[0] = 0.
// input and output are device pointers; output is NOT zeroed for you.
//
// This starter scans each 1024-element tile on its own, with a slow serial loop, and ignores
// everything before the tile. It is right only when n <= 1024. To finish it:
//   1. make the per-tile scan parallel (warp scans with __shfl_up_sync, then scan the warp totals);
//   2. write each tile's total to a scratch array (cudaMalloc it in solve);
//   3. scan the tile totals (for n = 10^8 there are ~97,700 of them: that is a multi-block scan too);
//   4. add each tile's offset to its elements in a final kernel.

constexpr int kTile = 1024;

__global__ void scan_tile_serial(const int* input, int* output, int n) {
    const int start = blockIdx.x * kTile;
    const int end = min(start + kTile, n);
    if (threadIdx.x == 0) {
        int running = 0;            // TODO: should start at the sum of all tiles before this one
        for (int i = start; i < end; ++i) {
            output[i] = running;
            running += input[i];
        }
    }
}

extern "C" void solve(const int* input, int* output, int n) {
    const int tiles = (n + kTile - 1) / kTile;
    scan_tile_serial<<<tiles, 32>>>(input, output, n);
    // No cudaDeviceSynchronize needed: the judge synchronizes after solve() returns.
}
