// Style: CUB block primitives -- BlockLoad + BlockRadixSort<float> sort each tile, then binary-search merge passes.
#include <cuda_runtime.h>
#include <cmath>
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>
#include <cub/block/block_radix_sort.cuh>

constexpr int THREADS = 256;
constexpr int ITEMS = 8;
constexpr int TILE = THREADS * ITEMS;   // 2048

// Sort every 2048-element tile in place (a block reads its whole tile before it writes it).
__global__ void sortTiles(float* data, int n) {
    using Load = cub::BlockLoad<float, THREADS, ITEMS, cub::BLOCK_LOAD_TRANSPOSE>;
    using Sort = cub::BlockRadixSort<float, THREADS, ITEMS>;
    __shared__ union {
        typename Load::TempStorage load;
        typename Sort::TempStorage sort;
    } temp;
    const long long base = (long long)blockIdx.x * TILE;
    const int valid = (int)min((long long)TILE, n - base);
    float keys[ITEMS];
    Load(temp.load).Load(data + base, keys, valid, INFINITY);   // padding sorts past the valid keys
    __syncthreads();
    Sort(temp.sort).Sort(keys);
    cub::StoreDirectBlocked(threadIdx.x, data + base, keys, valid);
}

// number of a[0..len) that are < x (strict) or <= x (inclusive)
__device__ int rankIn(const float* a, int len, float x, bool inclusive) {
    int lo = 0, hi = len;
    while (lo < hi) {
        int mid = (lo + hi) >> 1;
        bool before = inclusive ? (a[mid] <= x) : (a[mid] < x);
        if (before) lo = mid + 1; else hi = mid;
    }
    return lo;
}

// Merge sorted runs of length `width` pairwise: each element finds its place by a binary search
// in the other run. Ties: an element of the left run goes before equal elements of the right.
__global__ void mergeRuns(const float* src, float* dst, int n, int width) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const long long left = (long long)(i / (2LL * width)) * 2 * width;
    const long long mid = min(left + width, (long long)n);
    const long long right = min(left + 2LL * width, (long long)n);
    const float x = src[i];
    long long pos;
    if (i < mid)   // in the left run
        pos = i + rankIn(src + mid, (int)(right - mid), x, false);
    else           // in the right run
        pos = left + (i - mid) + rankIn(src + left, (int)(mid - left), x, true);
    dst[pos] = x;
}

extern "C" void solve(float* data, int N) {
    const int tiles = (N + TILE - 1) / TILE;
    sortTiles<<<tiles, THREADS>>>(data, N);
    if (tiles == 1) return;

    float* tmp = nullptr;
    cudaMalloc(&tmp, (size_t)N * sizeof(float));
    float* src = data;
    float* dst = tmp;
    const int blocks = (N + THREADS - 1) / THREADS;
    for (long long width = TILE; width < N; width *= 2) {
        mergeRuns<<<blocks, THREADS>>>(src, dst, N, (int)width);
        float* t = src; src = dst; dst = t;
    }
    if (src != data) cudaMemcpy(data, src, (size_t)N * sizeof(float), cudaMemcpyDeviceToDevice);
    cudaFree(tmp);
}
