// Per-block top-k in shared memory, then merge rounds.
//   A round cuts its array into tiles of 2048 values. A block of 1024 threads loads a tile into
//   shared memory (padding with -infinity), sorts it in DESCENDING order with a bitonic network,
//   and keeps the first min(k, tile size) values: the tile's own top-k, largest first.
//   The kept values of all tiles form the next round's array; every value of the global top-k
//   survives, because it is in the top-k of its own tile. Since k <= 1024, a round at least halves
//   the array (for k = 100: divides it by ~20). When at most 2048 values are left, one block
//   sorts them and writes the first k to output.
//   Reading the input happens once, in the first round; later rounds work on far smaller arrays.
#include <cuda_runtime.h>
#include <cmath>

constexpr int kThreads = 1024;
constexpr int kTile = 2 * kThreads;

// Bigger value to the lower index: the network sorts descending, -infinity padding stays last.
__device__ __forceinline__ void compare_swap_desc(float* s, int i, int l) {
    const float x = s[i], y = s[l];
    if (x < y) { s[i] = y; s[l] = x; }
}

__global__ void __launch_bounds__(kThreads) tile_topk(const float* src, float* dst, int m, int k) {
    __shared__ float s[kTile];
    const size_t base = (size_t)blockIdx.x * kTile;
    for (int j = threadIdx.x; j < kTile; j += kThreads) {
        const size_t i = base + j;
        s[j] = i < (size_t)m ? src[i] : -INFINITY;
    }
    __syncthreads();
    const int p = threadIdx.x;
    for (int size = 2; size <= kTile; size <<= 1) {
        const int half = size / 2;
        const int i = (p / half) * size + (p % half);
        compare_swap_desc(s, i, i ^ (size - 1));          // mirror step of the merge
        __syncthreads();
        for (int j = size / 4; j >= 1; j >>= 1) {
            const int a = (p / j) * (2 * j) + (p % j);
            compare_swap_desc(s, a, a + j);
            __syncthreads();
        }
    }
    const int count = (int)min((size_t)kTile, (size_t)m - base);
    const int keep = min(k, count);
    for (int r = threadIdx.x; r < keep; r += kThreads)
        dst[(size_t)blockIdx.x * k + r] = s[r];
}

extern "C" void solve(const float* input, float* output, int N, int k) {
    const int tiles = (N + kTile - 1) / kTile;
    if (tiles == 1) {
        tile_topk<<<1, kThreads>>>(input, output, N, k);
        return;
    }
    float* scratch = nullptr;
    const size_t cap = (size_t)tiles * k;                   // the first round's result is the largest
    if (cudaMalloc(&scratch, 2 * cap * sizeof(float)) != cudaSuccess) return;
    float* buf[2] = {scratch, scratch + cap};
    const float* src = input;
    long long m = N;
    int which = 0;
    while (m > kTile) {
        const long long t = (m + kTile - 1) / kTile;
        const long long last = m - (t - 1) * kTile;         // values in the last, partial tile
        tile_topk<<<(unsigned)t, kThreads>>>(src, buf[which], (int)m, k);
        m = (t - 1) * k + (last < k ? last : k);
        src = buf[which];
        which ^= 1;
    }
    tile_topk<<<1, kThreads>>>(src, output, (int)m, k);
    cudaFree(scratch);
}
