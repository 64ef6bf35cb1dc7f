// expect: WA
// Mistake: applies the four-neighbour average to the boundary cells too (clamping the missing neighbours to the edge) instead of copying them unchanged.
#include <cuda_runtime.h>

__global__ void jacobi(const float* in, float* out, int rows, int cols) {
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    const int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) {
        const int up = r > 0 ? r - 1 : r, down = r < rows - 1 ? r + 1 : r;     // BUG: boundary cells
        const int left = c > 0 ? c - 1 : c, right = c < cols - 1 ? c + 1 : c;  // should be copied
        out[r * cols + c] = 0.25f * (in[up * cols + c] + in[down * cols + c] + in[r * cols + left] + in[r * cols + right]);
    }
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
    const dim3 block(32, 8);
    const int tiles_y = (rows + 7) / 8;
    const dim3 grid((cols + 31) / 32, tiles_y);
    jacobi<<<grid, block>>>(input, output, rows, cols);
}
