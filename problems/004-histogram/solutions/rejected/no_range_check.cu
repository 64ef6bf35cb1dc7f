// expect: RE
// Trusts every key to be a valid bin: keys below 0 or >= num_bins make atomicAdd write outside
// the histogram (the judge's guard bytes around the buffer catch it).
#include <cuda_runtime.h>

__global__ void histogram_unchecked(const int* input, int* histogram, int N) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) atomicAdd(&histogram[input[i]], 1);              // BUG: no 0 <= key < num_bins test
}

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
    const int threads = 256;
    histogram_unchecked<<<(N + threads - 1) / threads, threads>>>(input, histogram, N);
}
