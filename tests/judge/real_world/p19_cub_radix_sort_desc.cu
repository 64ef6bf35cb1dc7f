// Style: CUB block primitives -- BlockRadixSort::SortDescending per tile (candidate rounds), BlockReduce with cuda::maximum<> for k == 1.
#include <cuda_runtime.h>
#include <cmath>
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cuda/functional>

constexpr int THREADS = 256;
constexpr int ITEMS = 8;
constexpr int TILE = THREADS * ITEMS;   // 2048 >= 2 * k, so each round at least halves the candidates

// Each block sorts its tile largest-first and keeps the first min(k, tile size) values.
__global__ void tileTopK(const float* src, float* dst, int m, int k) {
    using Sort = cub::BlockRadixSort<float, THREADS, ITEMS>;
    __shared__ typename Sort::TempStorage temp;
    const long long base = (long long)blockIdx.x * TILE;
    const int valid = (int)min((long long)TILE, m - base);
    float keys[ITEMS];
    cub::LoadDirectStriped<THREADS>(threadIdx.x, src + base, keys, valid, -INFINITY);
    Sort(temp).SortDescending(keys);   // blocked: thread t holds ranks t*ITEMS .. t*ITEMS+ITEMS-1
    cub::StoreDirectBlocked(threadIdx.x, dst + (long long)blockIdx.x * k, keys, min(k, valid));
}

// k == 1: a plain max reduction, two launches.
__global__ void blockMax(const float* in, float* out, int n) {
    using Reduce = cub::BlockReduce<float, THREADS>;
    __shared__ typename Reduce::TempStorage temp;
    float best = -INFINITY;
    for (long long i = (long long)blockIdx.x * THREADS + threadIdx.x; i < n; i += (long long)gridDim.x * THREADS)
        best = fmaxf(best, in[i]);
    float m = Reduce(temp).Reduce(best, cuda::maximum<>{});
    if (threadIdx.x == 0) out[blockIdx.x] = m;   // valid in thread 0 only
}

extern "C" void solve(const float* input, float* output, int N, int k) {
    if (k == 1) {
        int blocks = (N + THREADS - 1) / THREADS;
        if (blocks > 256) blocks = 256;
        if (blocks == 1) { blockMax<<<1, THREADS>>>(input, output, N); return; }
        float* partial = nullptr;
        cudaMalloc(&partial, blocks * sizeof(float));
        blockMax<<<blocks, THREADS>>>(input, partial, N);
        blockMax<<<1, THREADS>>>(partial, output, blocks);
        cudaFree(partial);
        return;
    }

    long long m = N;
    long long tiles = (m + TILE - 1) / TILE;
    if (tiles == 1) { tileTopK<<<1, THREADS>>>(input, output, N, k); return; }

    float* scratch = nullptr;
    const size_t cap = (size_t)tiles * k;   // the first round produces the most candidates
    cudaMalloc(&scratch, 2 * cap * sizeof(float));
    float* bufs[2] = {scratch, scratch + cap};
    const float* src = input;
    int which = 0;
    while (m > TILE) {
        tiles = (m + TILE - 1) / TILE;
        const long long last = m - (tiles - 1) * TILE;
        tileTopK<<<(unsigned)tiles, THREADS>>>(src, bufs[which], (int)m, k);
        m = (tiles - 1) * k + (last < k ? last : k);
        src = bufs[which];
        which ^= 1;
    }
    tileTopK<<<1, THREADS>>>(src, output, (int)m, k);
    cudaFree(scratch);
}
