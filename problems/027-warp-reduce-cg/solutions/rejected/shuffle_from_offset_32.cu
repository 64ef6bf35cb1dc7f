// expect: WA
// The shuffle tree starts at offset 32: __shfl_down_sync by a whole warp width finds no source lane and returns the caller's own value, so every partial sum is doubled before the real steps begin.
#include <cuda_runtime.h>

constexpr int kThreads = 256;
constexpr int kWarpsPerBlock = kThreads / 32;
constexpr unsigned kFull = 0xffffffffu;

__global__ void __launch_bounds__(kThreads)
row_sums_shfl(const float* __restrict__ matrix, float* row_sums, int rows, int cols) {
    const int lane = threadIdx.x & 31;
    const long long row = (long long)blockIdx.x * kWarpsPerBlock + (threadIdx.x >> 5);
    if (row >= rows) return;
    const float* r = matrix + row * cols;
    float a = 0.0f, b = 0.0f, c = 0.0f, d = 0.0f;
    int j = lane;
    for (; j + 96 < cols; j += 128) {
        a += r[j];
        b += r[j + 32];
        c += r[j + 64];
        d += r[j + 96];
    }
    for (; j < cols; j += 32) a += r[j];
    float s = (a + b) + (c + d);
#pragma unroll
    for (int offset = 32; offset > 0; offset >>= 1) s += __shfl_down_sync(kFull, s, offset);   // 32: one step too many
    if (lane == 0) row_sums[row] = s;
}

extern "C" void solve(const float* matrix, float* row_sums, int rows, int cols) {
    const int blocks = (rows + kWarpsPerBlock - 1) / kWarpsPerBlock;
    row_sums_shfl<<<blocks, kThreads>>>(matrix, row_sums, rows, cols);
}
