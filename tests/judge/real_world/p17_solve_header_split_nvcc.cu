// Style: "template header" (#include "solve.h", C++ linkage, non-const input) + nvcc spellings (uint, dim3 blockDim/gridDim, host min/max).
#include "solve.h"
#include <cuda_runtime.h>

#define TILE 1024      // 256 threads x 4 keys
#define PER_THREAD 4
#define BITS 4
#define RADIX 16

// exclusive scan of one uint per thread over the whole block (blockDim.x a multiple of 32)
__device__ uint blockExclusiveScan(uint v, uint* warpSums, uint* total) {
    uint lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
    uint x = v;
    for (int d = 1; d < 32; d <<= 1) {
        uint y = __shfl_up_sync(0xffffffffu, x, d);
        if (lane >= d) x += y;
    }
    if (lane == 31) warpSums[warp] = x;
    __syncthreads();
    if (warp == 0) {
        uint w = lane < nwarps ? warpSums[lane] : 0;
        for (int d = 1; d < 32; d <<= 1) {
            uint y = __shfl_up_sync(0xffffffffu, w, d);
            if (lane >= d) w += y;
        }
        if (lane < nwarps) warpSums[lane] = w;   // inclusive warp totals
    }
    __syncthreads();
    uint before = (warp > 0 ? warpSums[warp - 1] : 0) + x - v;
    *total = warpSums[nwarps - 1];
    __syncthreads();   // warpSums may be reused by the next call
    return before;
}

// Sort each tile by the digit with 4 stable 1-bit splits, write the sorted tile to tmp, its digit
// counts (digit-major) and where each digit starts inside the tile.
__global__ void localSort(uint* in, uint* tmp, uint* counts, uint* starts, uint n, uint shift, uint tiles) {
    __shared__ uint buf[2][TILE];
    __shared__ uint warpSums[32];
    __shared__ uint first[RADIX], last[RADIX];
    uint base = blockIdx.x * TILE;
    uint valid = min(n - base, (uint)TILE);
    for (uint j = threadIdx.x; j < TILE; j += blockDim.x)
        buf[0][j] = j < valid ? in[base + j] : 0xffffffffu;   // padding sorts last
    if (threadIdx.x < RADIX) { first[threadIdx.x] = 0; last[threadIdx.x] = 0; }
    __syncthreads();

    int cur = 0;
    for (uint b = shift; b < shift + BITS; ++b) {
        uint k[PER_THREAD], zeros = 0;
        for (int i = 0; i < PER_THREAD; ++i) {
            k[i] = buf[cur][threadIdx.x * PER_THREAD + i];
            zeros += ((k[i] >> b) & 1) == 0;
        }
        uint totalZeros;
        uint z = blockExclusiveScan(zeros, warpSums, &totalZeros);
        for (int i = 0; i < PER_THREAD; ++i) {
            uint p = threadIdx.x * PER_THREAD + i;
            if (((k[i] >> b) & 1) == 0) buf[cur ^ 1][z++] = k[i];
            else buf[cur ^ 1][totalZeros + (p - z)] = k[i];
        }
        cur ^= 1;
        __syncthreads();
    }

    for (uint j = threadIdx.x; j < valid; j += blockDim.x) {
        uint key = buf[cur][j], d = (key >> shift) & (RADIX - 1);
        if (j == 0 || ((buf[cur][j - 1] >> shift) & (RADIX - 1)) != d) first[d] = j;
        if (j == valid - 1 || ((buf[cur][j + 1] >> shift) & (RADIX - 1)) != d) last[d] = j + 1;
        tmp[base + j] = key;
    }
    __syncthreads();
    if (threadIdx.x < RADIX) {
        counts[threadIdx.x * tiles + blockIdx.x] = last[threadIdx.x] - first[threadIdx.x];
        starts[blockIdx.x * RADIX + threadIdx.x] = first[threadIdx.x];
    }
}

// block d: exclusive scan of counts row d over the tiles; rowTotal[d] = the row's sum
__global__ void scanRows(uint* counts, uint* rowTotal, uint tiles) {
    __shared__ uint warpSums[32];
    uint* row = counts + blockIdx.x * tiles;
    uint carry = 0;
    for (uint start = 0; start < tiles; start += blockDim.x) {
        uint i = start + threadIdx.x, total;
        uint v = i < tiles ? row[i] : 0;
        uint e = blockExclusiveScan(v, warpSums, &total);
        if (i < tiles) row[i] = carry + e;
        carry += total;
    }
    if (threadIdx.x == 0) rowTotal[blockIdx.x] = carry;
}

__global__ void scatter(uint* tmp, uint* out, uint* counts, uint* starts, uint* rowTotal, uint n, uint shift, uint tiles) {
    __shared__ uint dest[RADIX];
    if (threadIdx.x == 0) {
        uint digitBase = 0;
        for (int d = 0; d < RADIX; ++d) {
            dest[d] = digitBase + counts[d * tiles + blockIdx.x] - starts[blockIdx.x * RADIX + d];
            digitBase += rowTotal[d];
        }
    }
    __syncthreads();
    uint base = blockIdx.x * TILE;
    for (uint j = threadIdx.x; j < TILE && base + j < n; j += blockDim.x) {
        uint key = tmp[base + j];
        out[dest[(key >> shift) & (RADIX - 1)] + j] = key;
    }
}

void solve(unsigned int* input, unsigned int* output, int N) {
    uint tiles = (N + TILE - 1) / TILE;
    uint *bufA, *bufB, *counts, *starts, *rowTotal;
    cudaMalloc(&bufA, N * sizeof(uint));
    cudaMalloc(&bufB, N * sizeof(uint));
    cudaMalloc(&counts, RADIX * tiles * sizeof(uint));
    cudaMalloc(&starts, RADIX * tiles * sizeof(uint));
    cudaMalloc(&rowTotal, RADIX * sizeof(uint));

    dim3 blockDim(256);
    dim3 gridDim((N + TILE - 1) / TILE);
    int scanThreads = min(1024, max(32, (int)((tiles + 31) / 32 * 32)));

    // bufA holds the locally sorted tiles; the passes go input -> bufB -> output -> bufB ... -> output
    uint* src = input;
    for (uint shift = 0; shift < 32; shift += BITS) {
        uint* dst = (src == bufB) ? output : bufB;
        localSort<<<gridDim, blockDim>>>(src, bufA, counts, starts, N, shift, tiles);
        scanRows<<<RADIX, scanThreads>>>(counts, rowTotal, tiles);
        scatter<<<gridDim, blockDim>>>(bufA, dst, counts, starts, rowTotal, N, shift, tiles);
        src = dst;
    }
    cudaFree(bufA); cudaFree(bufB); cudaFree(counts); cudaFree(starts); cudaFree(rowTotal);
}
