// expect: WA
// Splits the flat input index with the wrong dimension (r = i % rows, c = i / rows, as if the
// input were column-major). Every write stays in bounds, but output[c * rows + r] is then just
// output[i]: the kernel copies the matrix instead of transposing it.
#include <cuda_runtime.h>

__global__ void transpose_swapped(const float* input, float* output, int rows, int cols) {
    const long long total = (long long)rows * cols;
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < total) {
        const long long r = i % rows;                  // BUG: should be r = i / cols
        const long long c = i / rows;                  // BUG: should be c = i % cols
        output[c * rows + r] = input[i];
    }
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
    const int threads = 256;
    const long long blocks = ((long long)rows * cols + threads - 1) / threads;
    transpose_swapped<<<(unsigned)blocks, threads>>>(input, output, rows, cols);
}
