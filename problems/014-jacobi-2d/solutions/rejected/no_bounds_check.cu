// expect: RE
// Mistake: no bounds check. The grid is rounded up to whole 32 x 8 blocks, and the threads that fall outside the matrix on the ragged right and bottom edges still compute and write, past the end of output.
#include <cuda_runtime.h>

__global__ void jacobi(const float* in, float* out, int rows, int cols) {
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    const int r = blockIdx.y * blockDim.y + threadIdx.y;
    // BUG: missing  if (r >= rows || c >= cols) return;
    const int i = r * cols + c;
    if (r == 0 || r == rows - 1 || c == 0 || c == cols - 1)
        out[i] = in[i];
    else
        out[i] = 0.25f * (in[i - cols] + in[i + cols] + in[i - 1] + in[i + 1]);
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
    const dim3 block(32, 8);
    const dim3 grid((cols + 31) / 32, (rows + 7) / 8);
    jacobi<<<grid, block>>>(input, output, rows, cols);
}
