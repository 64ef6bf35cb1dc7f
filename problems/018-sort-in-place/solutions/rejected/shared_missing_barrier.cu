// expect: WA race
// Shared-memory bitonic sort without a barrier between the compare-exchange steps of a merge: a thread starts step j/2 while others are still in step j, and reads values that are about to change.
// Bitonic sort with the short-distance steps in shared memory.
//   sort_tiles:   each block of 1024 threads sorts a tile of 2048 values entirely in shared
//                 memory (all stages k = 2..2048), padding past N with +infinity;
//   then for every larger merge size k = 4096, 8192, ..., P (P = next power of two >= N):
//     global steps for the mirror comparator (distance up to k/2) and distances >= 2048,
//     merge_tile:  the remaining distances 1024, 512, ..., 1 inside each tile, in shared memory.
// Only the ~log^2(N/2048)/2 long-distance steps touch global memory once per step; each tile
// kernel replaces 11 (or 66) global steps with one load and one store.
//
// Every comparator puts the smaller value at the lower index (mirror step first in each merge),
// so imagined +infinity keys past N never move: global steps skip them, tiles pad with them.
#include <cuda_runtime.h>
#include <cmath>

constexpr int kThreads = 1024;
constexpr int kTile = 2 * kThreads;

__device__ __forceinline__ void compare_swap(float* s, int i, int l) {
    const float x = s[i], y = s[l];
    if (x > y) { s[i] = y; s[l] = x; }
}

__device__ void load_tile(const float* a, float* s, int n) {
    const size_t base = (size_t)blockIdx.x * kTile;
    for (int j = threadIdx.x; j < kTile; j += kThreads) {
        const size_t i = base + j;
        s[j] = i < (size_t)n ? a[i] : INFINITY;
    }
    __syncthreads();
}

__device__ void store_tile(float* a, const float* s, int n) {
    __syncthreads();
    const size_t base = (size_t)blockIdx.x * kTile;
    for (int j = threadIdx.x; j < kTile; j += kThreads) {
        const size_t i = base + j;
        if (i < (size_t)n) a[i] = s[j];
    }
}

// Half-cleaner steps with distances from `from` down to 1; thread p handles one pair per step.
__device__ void half_cleaners(float* s, int from) {
    const int p = threadIdx.x;
    for (int j = from; j >= 1; j >>= 1) {
        const int i = (p / j) * (2 * j) + (p % j);
        compare_swap(s, i, i + j);
        // BUG: no __syncthreads() here: the next step reads pairs other threads have not
        // finished swapping.
    }
}

__global__ void __launch_bounds__(kThreads) sort_tiles(float* a, int n) {
    __shared__ float s[kTile];
    load_tile(a, s, n);
    const int p = threadIdx.x;
    for (int k = 2; k <= kTile; k <<= 1) {
        const int half = k / 2;
        const int i = (p / half) * k + (p % half);
        compare_swap(s, i, i ^ (k - 1));          // mirror step of the merge of size k
        __syncthreads();
        half_cleaners(s, k / 4);
    }
    store_tile(a, s, n);
}

__global__ void __launch_bounds__(kThreads) merge_tile(float* a, int n) {
    __shared__ float s[kTile];
    load_tile(a, s, n);
    half_cleaners(s, kTile / 2);
    store_tile(a, s, n);
}

__global__ void global_step(float* a, int n, unsigned long long pairs, unsigned long long k,
                            unsigned long long j, bool mirror) {
    const unsigned long long p = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= pairs) return;
    const unsigned long long i = (p / j) * (2 * j) + (p % j);
    const unsigned long long l = mirror ? (i ^ (k - 1)) : (i + j);
    if (l >= (unsigned long long)n) return;
    const float x = a[i], y = a[l];
    if (x > y) { a[i] = y; a[l] = x; }
}

extern "C" void solve(float* data, int N) {
    if (N <= 1) return;
    const unsigned int tiles = (unsigned int)((N + kTile - 1) / kTile);
    sort_tiles<<<tiles, kThreads>>>(data, N);
    unsigned long long P = 1;
    while (P < (unsigned long long)N) P <<= 1;
    const unsigned long long pairs = P / 2;
    const unsigned int blocks = (unsigned int)((pairs + 255) / 256);
    for (unsigned long long k = 2 * kTile; k <= P; k <<= 1) {
        global_step<<<blocks, 256>>>(data, N, pairs, k, k / 2, true);
        for (unsigned long long j = k / 4; j >= (unsigned long long)kTile; j >>= 1)
            global_step<<<blocks, 256>>>(data, N, pairs, k, j, false);
        merge_tile<<<tiles, kThreads>>>(data, N);
    }
}
