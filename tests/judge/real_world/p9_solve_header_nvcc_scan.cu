// Style: "template header" (#include "solve.h", C++ linkage) with nvcc spellings: uint, host max(), dim3 blockDim/gridDim.
#include "solve.h"
#include <cuda_runtime.h>

#define BLOCK 1024   // one element per thread, 32 warps

// Inclusive scan of one 1024-element tile per block (warp shuffles + one scan of the warp
// totals); the tile's total goes to sums[blockIdx.x] when sums is given.
__global__ void scanTile(const float* in, float* out, float* sums, uint n) {
    __shared__ float warpTotals[32];
    uint i = blockIdx.x * BLOCK + threadIdx.x;
    uint lane = threadIdx.x & 31, warp = threadIdx.x >> 5;

    float x = i < n ? in[i] : 0.0f;
    for (uint d = 1; d < 32; d <<= 1) {
        float y = __shfl_up_sync(0xffffffffu, x, d);
        if (lane >= d) x += y;
    }
    if (lane == 31) warpTotals[warp] = x;
    __syncthreads();

    if (warp == 0) {
        float t = warpTotals[lane];
        for (uint d = 1; d < 32; d <<= 1) {
            float y = __shfl_up_sync(0xffffffffu, t, d);
            if (lane >= d) t += y;
        }
        warpTotals[lane] = t;   // inclusive over warps (each lane rewrites only its own entry)
    }
    __syncthreads();

    if (warp > 0) x += warpTotals[warp - 1];
    if (i < n) out[i] = x;
    if (sums != nullptr && threadIdx.x == BLOCK - 1) sums[blockIdx.x] = x;
}

// Tile b > 0 gets the inclusive total of the tiles before it.
__global__ void addCarry(float* out, const float* scannedSums, uint n) {
    uint i = (blockIdx.x + 1) * BLOCK + threadIdx.x;
    if (i < n) out[i] += scannedSums[blockIdx.x];
}

// Scan n floats from in to out; scratch has room for every level's tile totals.
static void scanLevel(const float* in, float* out, uint n, float* scratch) {
    dim3 blockDim(1024);   // == BLOCK
    dim3 gridDim((n + BLOCK - 1) / BLOCK);
    if (gridDim.x == 1) {
        scanTile<<<gridDim, blockDim>>>(in, out, nullptr, n);
        return;
    }
    float* sums = scratch;
    scanTile<<<gridDim, blockDim>>>(in, out, sums, n);
    scanLevel(sums, sums, gridDim.x, scratch + gridDim.x);   // in place is fine: one read, one write per thread
    addCarry<<<gridDim.x - 1, blockDim>>>(out, sums, n);
}

void solve(const float* input, float* output, int N) {
    // room for the totals of all levels: n/1024 + n/1024^2 + ...
    uint scratchSize = 0;
    for (uint m = N; m > BLOCK; m = (m + BLOCK - 1) / BLOCK) scratchSize += (m + BLOCK - 1) / BLOCK;
    float* scratch = nullptr;
    cudaMalloc(&scratch, max(scratchSize, 1u) * sizeof(float));
    scanLevel(input, output, (uint)N, scratch);
    cudaFree(scratch);
}
