// Three-pass inclusive scan ("reduce, scan the totals, scan again") with 1024-element tiles.
//   pass 1: every block adds up its tile and stores the total;
//   pass 2: one block turns the tile totals into exclusive tile offsets, 1024 totals at a time,
//           carrying the running sum from one chunk to the next;
//   pass 3: every block scans its tile (warp scans with __shfl_up_sync, then a scan of the 32
//           warp totals) and adds its tile's offset.
// Traffic: the input is read twice and the output written once (12 N bytes).
#include <cuda_runtime.h>

constexpr int kTile = 1024;           // one element per thread, 1024 threads per block
constexpr unsigned kFull = 0xffffffffu;

__device__ __forceinline__ float warp_inclusive(float v, int lane) {
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const float up = __shfl_up_sync(kFull, v, d);
        if (lane >= d) v += up;
    }
    return v;
}

// Inclusive scan over the 1024 threads of the block; *total receives the block's sum.
// Ends with a barrier, so it may be called again right away (as pass 2 does in a loop).
__device__ float block_inclusive(float v, float* total) {
    __shared__ float warp_base[32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    v = warp_inclusive(v, lane);
    if (lane == 31) warp_base[warp] = v;
    __syncthreads();
    if (warp == 0) {
        const float w = warp_base[lane];
        const float s = warp_inclusive(w, lane);
        warp_base[lane] = s - w;                    // sum of the warps before this one
        if (lane == 31) *total = s;
    }
    __syncthreads();
    v += warp_base[warp];
    __syncthreads();                                // warp_base / *total are reused next call
    return v;
}

__device__ __forceinline__ float block_sum(float v) {
    __shared__ float warp_sums[32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(kFull, v, off);
    if (lane == 0) warp_sums[warp] = v;
    __syncthreads();
    v = 0.0f;
    if (warp == 0) {
        v = warp_sums[lane];
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(kFull, v, off);
    }
    return v;                                       // valid in thread 0
}

__global__ void tile_totals(const float* in, float* totals, int n) {
    const long long i = (long long)blockIdx.x * kTile + threadIdx.x;
    const float s = block_sum(i < n ? in[i] : 0.0f);
    if (threadIdx.x == 0) totals[blockIdx.x] = s;
}

// In place: totals[k] becomes the sum of totals[0..k-1].
__global__ void tile_offsets(float* totals, int count) {
    __shared__ float chunk_total;
    float carry = 0.0f;
    for (int base = 0; base < count; base += kTile) {
        const int k = base + threadIdx.x;
        const float x = k < count ? totals[k] : 0.0f;
        const float incl = block_inclusive(x, &chunk_total);
        if (k < count) totals[k] = carry + (incl - x);
        carry += chunk_total;                       // block_inclusive ended with a barrier
        __syncthreads();                            // everyone has read chunk_total
    }
}

__global__ void scan_tiles(const float* in, const float* offsets, float* out, int n) {
    __shared__ float unused_total;
    const long long i = (long long)blockIdx.x * kTile + threadIdx.x;
    const float x = i < n ? in[i] : 0.0f;
    const float incl = block_inclusive(x, &unused_total);
    if (i < n) out[i] = offsets[blockIdx.x] + incl;
}

extern "C" void solve(const float* input, float* output, int N) {
    if (N <= 0) return;
    const int tiles = (int)(((long long)N + kTile - 1) / kTile);
    float* totals = nullptr;
    if (cudaMalloc(&totals, sizeof(float) * tiles) != cudaSuccess) return;
    tile_totals<<<tiles, kTile>>>(input, totals, N);
    tile_offsets<<<1, kTile>>>(totals, tiles);
    scan_tiles<<<tiles, kTile>>>(input, totals, output, N);
    cudaFree(totals);
}
