// expect: WA
// Assumes a row fits in one warp (cols <= 32): every lane adds at most one element, so longer rows lose everything past column 31.
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
    float s = lane < cols ? r[lane] : 0.0f;   // one element per lane: only the first 32 columns
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) s += __shfl_down_sync(kFull, s, offset);
    if (lane == 0) row_sums[row] = s;
}

extern "C" void solve(const float* matrix, float* row_sums, int rows, int cols) {
    const int blocks = (rows + kWarpsPerBlock - 1) / kWarpsPerBlock;
    row_sums_shfl<<<blocks, kThreads>>>(matrix, row_sums, rows, cols);
}
