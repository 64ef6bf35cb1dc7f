// expect: RE
// Tiled transpose without bounds checks: fine when rows and cols are multiples of 32, but the
// tiles on the ragged right/bottom edge read and write past the matrices (an out-of-bounds
// write after the end of `output`).
#include <cuda_runtime.h>

constexpr int kTile = 32;
constexpr int kRows = 8;

__global__ void transpose_tiled(const float* input, float* output, int rows, int cols) {
    __shared__ float tile[kTile][kTile + 1];
    const int in_col = blockIdx.x * kTile + threadIdx.x;
    const int in_row = blockIdx.y * kTile + threadIdx.y;
    for (int j = 0; j < kTile; j += kRows)                       // BUG: no in_row/in_col test
        tile[threadIdx.y + j][threadIdx.x] = input[(size_t)(in_row + j) * cols + in_col];
    __syncthreads();
    const int out_col = blockIdx.y * kTile + threadIdx.x;
    const int out_row = blockIdx.x * kTile + threadIdx.y;
    for (int j = 0; j < kTile; j += kRows)                       // BUG: no out_row/out_col test
        output[(size_t)(out_row + j) * rows + out_col] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
    const dim3 block(kTile, kRows);
    const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    transpose_tiled<<<grid, block>>>(input, output, rows, cols);
}
