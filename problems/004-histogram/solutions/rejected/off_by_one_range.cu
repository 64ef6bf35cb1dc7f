// expect: RE
// Range check with <= instead of <: the key num_bins is counted into histogram[num_bins], one
// element past the end of the histogram.
#include <cuda_runtime.h>

__global__ void histogram_off_by_one(const int* input, int* histogram, int N, int num_bins) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        const int key = input[i];
        if (key >= 0 && key <= num_bins) atomicAdd(&histogram[key], 1);   // BUG: key == num_bins
    }
}

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
    const int threads = 256;
    histogram_off_by_one<<<(N + threads - 1) / threads, threads>>>(input, histogram, N, num_bins);
}
