// Tiled transpose through shared memory. A 32 x 8 block moves one 32 x 32 tile:
//   read:  each warp reads 32 consecutive floats of an input row (coalesced) into tile[y][x];
//   write: after the barrier each warp reads a COLUMN of the tile, tile[x][y], which is a row
//          of the output, and writes it as 32 consecutive floats (coalesced).
// The tile is 32 x 33: with the extra column the 32 floats of a tile column fall into 32
// different shared-memory banks instead of one, so reading a column costs no bank conflicts.
#include <cuda_runtime.h>

constexpr int kTile = 32;
constexpr int kRows = 8;    // blockDim = (32, 8): each thread moves kTile / kRows = 4 elements

__global__ void transpose_tiled(const float* __restrict__ input, float* __restrict__ output,
                                int rows, int cols) {
    __shared__ float tile[kTile][kTile + 1];

    const int in_col = blockIdx.x * kTile + threadIdx.x;
    const int in_row = blockIdx.y * kTile + threadIdx.y;
#pragma unroll
    for (int j = 0; j < kTile; j += kRows)
        if (in_row + j < rows && in_col < cols)
            tile[threadIdx.y + j][threadIdx.x] = input[(size_t)(in_row + j) * cols + in_col];

    __syncthreads();   // the whole tile must be in shared memory before anyone reads a column

    // Output element (out_row, out_col) is input element (out_col, out_row).
    const int out_col = blockIdx.y * kTile + threadIdx.x;   // < rows
    const int out_row = blockIdx.x * kTile + threadIdx.y;   // < cols
#pragma unroll
    for (int j = 0; j < kTile; j += kRows)
        if (out_row + j < cols && out_col < rows)
            output[(size_t)(out_row + j) * rows + out_col] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
    // Tiles along x cover the columns, along y the rows: rows <= 2,000,000 keeps gridDim.y
    // under its limit of 65535.
    const dim3 block(kTile, kRows);
    const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    transpose_tiled<<<grid, block>>>(input, output, rows, cols);
}
