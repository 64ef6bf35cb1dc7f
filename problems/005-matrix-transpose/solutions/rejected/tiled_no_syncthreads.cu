// expect: WA race
// Tiled transpose without the __syncthreads() between filling the tile and reading it: a thread
// reads tile[x][y], which another warp (or another thread) may not have written yet.
#include <cuda_runtime.h>

constexpr int kTile = 32;
constexpr int kRows = 8;

__global__ void transpose_tiled(const float* input, float* output, int rows, int cols) {
    __shared__ float tile[kTile][kTile + 1];
    const int in_col = blockIdx.x * kTile + threadIdx.x;
    const int in_row = blockIdx.y * kTile + threadIdx.y;
    for (int j = 0; j < kTile; j += kRows)
        if (in_row + j < rows && in_col < cols)
            tile[threadIdx.y + j][threadIdx.x] = input[(size_t)(in_row + j) * cols + in_col];
    // BUG: missing __syncthreads()
    const int out_col = blockIdx.y * kTile + threadIdx.x;
    const int out_row = blockIdx.x * kTile + threadIdx.y;
    for (int j = 0; j < kTile; j += kRows)
        if (out_row + j < cols && out_col < rows)
            output[(size_t)(out_row + j) * rows + out_col] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
    const dim3 block(kTile, kRows);
    const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    transpose_tiled<<<grid, block>>>(input, output, rows, cols);
}
