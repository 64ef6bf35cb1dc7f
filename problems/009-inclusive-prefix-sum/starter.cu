#include <cuda_runtime.h>

// Inclusive prefix sum: output[i] = input[0] + input[1] + ... + input[i].
// input and output are device pointers; output is NOT zeroed (it holds NaNs).
//
// This starter scans each 1024-element tile with one slow serial thread and ignores all tiles
// before it, so it is right only for N <= 1024. To finish it:
//   1. scan a tile in parallel: warp scans with __shfl_up_sync (5 steps), then scan the 32
//      warp totals and add them back;
//   2. store each tile's total in a scratch array (cudaMalloc it here);
//   3. turn the tile totals into offsets (an exclusive scan of them -- at N = 10^8 there are
//      about 97,700 tiles, so this step must handle many blocks' worth of totals);
//   4. add each tile's offset to its elements.

constexpr int kTile = 1024;

__global__ void scan_tile_serial(const float* input, float* output, int N) {
    const int start = blockIdx.x * kTile;
    const int end = min(start + kTile, N);
    if (threadIdx.x == 0) {
        float running = 0.0f;       // TODO: should start at the sum of every earlier tile
        for (int i = start; i < end; ++i) {
            running += input[i];
            output[i] = running;
        }
    }
}

extern "C" void solve(const float* input, float* output, int N) {
    const int tiles = (N + kTile - 1) / kTile;
    scan_tile_serial<<<tiles, 32>>>(input, output, N);
    // No cudaDeviceSynchronize needed: the judge synchronizes after solve() returns.
}
