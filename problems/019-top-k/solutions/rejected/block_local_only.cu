// expect: WA
// Computes each block's top-k correctly but never merges them: the answer is the top-k of the first 2048 values only, wrong as soon as N needs more than one block.
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
    float* candidates = nullptr;
    if (cudaMalloc(&candidates, (size_t)tiles * k * sizeof(float)) != cudaSuccess) return;
    tile_topk<<<tiles, kThreads>>>(input, candidates, N, k);   // every tile's own top-k ...
    // BUG: ... but only tile 0's list is copied out, as if one block had seen all N values.
    cudaMemcpy(output, candidates, (size_t)k * sizeof(float), cudaMemcpyDeviceToDevice);
    cudaFree(candidates);
}
