// expect: WA
// Mistake: "in-place" thinking: the neighbours are read from output instead of input. output holds garbage (NaN) before the call, and cells that are already written hold new values, not the old ones a Jacobi step must use.
#include <cuda_runtime.h>

__global__ void jacobi(const float* in, float* out, int rows, int cols) {
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    const int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) {
        const int i = r * cols + c;
        if (r == 0 || r == rows - 1 || c == 0 || c == cols - 1)
            out[i] = in[i];
        else
            out[i] = 0.25f * (out[i - cols] + out[i + cols] + out[i - 1] + out[i + 1]);   // BUG: read in[]
    }
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
    const dim3 block(32, 8);
    const dim3 grid((cols + 31) / 32, (rows + 7) / 8);
    jacobi<<<grid, block>>>(input, output, rows, cols);
}
