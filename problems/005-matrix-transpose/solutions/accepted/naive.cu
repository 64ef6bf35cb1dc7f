// Naive transpose: one thread per input element, flat grid-stride loop.
// Reads are coalesced (neighbouring threads read neighbouring input elements of a row), but
// the writes of neighbouring threads land `rows` floats apart, so every store touches its own
// memory sector. Correct for every shape, including 1 x N and N x 1.
#include <cuda_runtime.h>

__global__ void transpose_naive(const float* __restrict__ input, float* __restrict__ output,
                                int rows, int cols) {
    const long long total = (long long)rows * cols;
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride) {
        const long long r = i / cols;                  // input row    = output column
        const long long c = i - r * cols;              // input column = output row
        output[c * rows + r] = input[i];
    }
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
    const int threads = 256;
    const long long total = (long long)rows * cols;
    long long blocks = (total + threads - 1) / threads;
    if (blocks > 65536) blocks = 65536;                // the grid-stride loop covers the rest
    transpose_naive<<<(int)blocks, threads>>>(input, output, rows, cols);
}
