// Style: nvcc spellings -- uint, __FLT_MAX__ without <cfloat>, host max(), dim3 blockDim/gridDim; shared+global bitonic sort.
#include <cuda_runtime.h>

#define SHARED_THREADS 1024
#define TILE (2 * SHARED_THREADS)   // 2048 floats sorted / merged in shared memory

// Every comparator puts the smaller value at the lower index, so a partner at or past n acts as
// +infinity and never swaps: those comparators are skipped (in shared memory: padded with FLT_MAX).
__device__ __forceinline__ void cas(float* s, uint a, uint b) {
    float x = s[a], y = s[b];
    if (x > y) { s[a] = y; s[b] = x; }
}

// the first stages: a full bitonic sort of each 2048-element tile
__global__ void sortTiles(float* data, uint n) {
    __shared__ float s[TILE];
    uint base = blockIdx.x * TILE, t = threadIdx.x;
    for (uint j = t; j < TILE; j += SHARED_THREADS) s[j] = base + j < n ? data[base + j] : __FLT_MAX__;
    __syncthreads();
    for (uint k = 2; k <= TILE; k <<= 1) {
        uint half = k >> 1;
        uint i = (t / half) * k + (t % half);
        cas(s, i, i ^ (k - 1));   // mirror step
        __syncthreads();
        for (uint j = k >> 2; j > 0; j >>= 1) {
            uint a = (t / j) * 2 * j + (t % j);
            cas(s, a, a + j);
            __syncthreads();
        }
    }
    for (uint j = t; j < TILE; j += SHARED_THREADS) if (base + j < n) data[base + j] = s[j];
}

// the last steps (distance <= 1024) of a merge of size >= 4096, inside each tile
__global__ void mergeTiles(float* data, uint n) {
    __shared__ float s[TILE];
    uint base = blockIdx.x * TILE, t = threadIdx.x;
    for (uint j = t; j < TILE; j += SHARED_THREADS) s[j] = base + j < n ? data[base + j] : __FLT_MAX__;
    __syncthreads();
    for (uint j = TILE / 2; j > 0; j >>= 1) {
        uint a = (t / j) * 2 * j + (t % j);
        cas(s, a, a + j);
        __syncthreads();
    }
    for (uint j = t; j < TILE; j += SHARED_THREADS) if (base + j < n) data[base + j] = s[j];
}

// one global step: mirror (partner i ^ (k-1)) when mirror != 0, else distance j
__global__ void globalStep(float* data, uint n, uint k, uint j, int mirror) {
    uint t = blockIdx.x * blockDim.x + threadIdx.x;
    uint i, l;
    if (mirror) {
        uint half = k >> 1;
        i = (t / half) * k + (t % half);
        l = i ^ (k - 1);
    } else {
        i = (t / j) * 2 * j + (t % j);
        l = i + j;
    }
    if (l < n) {   // l > i always, so i < n too
        float x = data[i], y = data[l];
        if (x > y) { data[i] = y; data[l] = x; }
    }
}

extern "C" void solve(float* data, int N) {
    if (N <= 1) return;
    uint n = N;
    uint tiles = max((n + TILE - 1) / TILE, 1u);
    sortTiles<<<tiles, SHARED_THREADS>>>(data, n);

    uint P = TILE;
    while (P < n) P <<= 1;
    dim3 blockDim(256);
    dim3 gridDim(max(1u, (P / 2) / 256));   // one thread per comparator of the padded network
    for (uint k = 2 * TILE; k <= P; k <<= 1) {
        globalStep<<<gridDim, blockDim>>>(data, n, k, 0, 1);
        for (uint j = k >> 2; j >= TILE; j >>= 1)
            globalStep<<<gridDim, blockDim>>>(data, n, k, j, 0);
        mergeTiles<<<tiles, SHARED_THREADS>>>(data, n);
    }
}
