// Tiled transpose with a square 32 x 32 shared tile: correct, and both global accesses are
// coalesced, but reading a tile column makes the 32 lanes of a warp hit addresses 32 floats
// apart, which all sit in the same shared-memory bank: a 32-way bank conflict on every read of
// the second phase (the padded version, tile[32][33], avoids it).
#include <cuda_runtime.h>

constexpr int kSide = 32;
constexpr int kSteps = 4;   // blockDim.y = kSide / kSteps = 8 rows of threads

__global__ void transpose_square_tile(const float* __restrict__ input, float* __restrict__ output,
                                      int rows, int cols) {
    __shared__ float tile[kSide][kSide];
    const int x = blockIdx.x * kSide + threadIdx.x;
    const int y = blockIdx.y * kSide + threadIdx.y;
    for (int k = 0; k < kSide; k += kSide / kSteps)
        if (y + k < rows && x < cols) tile[threadIdx.y + k][threadIdx.x] = input[(size_t)(y + k) * cols + x];
    __syncthreads();
    const int tx = blockIdx.y * kSide + threadIdx.x;   // an input row, an output column
    const int ty = blockIdx.x * kSide + threadIdx.y;   // an input column, an output row
    for (int k = 0; k < kSide; k += kSide / kSteps)
        if (ty + k < cols && tx < rows) output[(size_t)(ty + k) * rows + tx] = tile[threadIdx.x][threadIdx.y + k];
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
    const dim3 block(kSide, kSide / kSteps);
    const dim3 grid((cols + kSide - 1) / kSide, (rows + kSide - 1) / kSide);
    transpose_square_tile<<<grid, block>>>(input, output, rows, cols);
}
