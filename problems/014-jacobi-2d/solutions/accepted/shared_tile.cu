// Shared-memory tiling: a 32 x 8 block stages its tile plus a one-cell halo on all four sides
// ((8 + 2) x (32 + 2) floats) in shared memory, then computes every cell from shared memory.
// Each input value is loaded from global memory about 1.3 times instead of 5 times.
// The tile is filled cooperatively (340 cells by 256 threads); cells outside the matrix are
// never needed (they only neighbour boundary cells, which are copied) and are set to 0.
// Block rows loop down the matrix when it needs more than 65535 tiles in y; the barrier at the
// end of the loop keeps the next tile's loads from overwriting cells still being read.
#include <cuda_runtime.h>

constexpr int kBX = 32, kBY = 8;
constexpr int kSX = kBX + 2, kSY = kBY + 2;

__global__ void __launch_bounds__(kBX * kBY)
jacobi_shared(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
    __shared__ float tile[kSY][kSX];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int tid = ty * kBX + tx;
    const int c0 = blockIdx.x * kBX;
    const int c = c0 + tx;
    const int tiles_y = (rows + kBY - 1) / kBY;

    for (int by = blockIdx.y; by < tiles_y; by += gridDim.y) {     // same count for all threads
        const long long r0 = (long long)by * kBY;
        for (int k = tid; k < kSX * kSY; k += kBX * kBY) {
            const long long gr = r0 - 1 + k / kSX;
            const int gc = c0 - 1 + k % kSX;
            tile[k / kSX][k % kSX] = (gr >= 0 && gr < rows && gc >= 0 && gc < cols) ? in[gr * cols + gc] : 0.0f;
        }
        __syncthreads();                                  // tile and halo complete

        const long long r = r0 + ty;
        if (r < rows && c < cols) {
            const float centre = tile[ty + 1][tx + 1];
            float value = centre;                         // boundary cells are copied
            if (r > 0 && r < rows - 1 && c > 0 && c < cols - 1)
                value = 0.25f * (tile[ty][tx + 1] + tile[ty + 2][tx + 1] + tile[ty + 1][tx] + tile[ty + 1][tx + 2]);
            out[r * cols + c] = value;
        }
        __syncthreads();                                  // done reading before the next tile
    }
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
    const dim3 block(kBX, kBY);
    const int tiles_y = (rows + kBY - 1) / kBY;
    const dim3 grid((cols + kBX - 1) / kBX, tiles_y < 65535 ? tiles_y : 65535);
    jacobi_shared<<<grid, block>>>(input, output, rows, cols);
}
