// expect: RE
// Mistake: reads the bytes through a (signed) char pointer, so byte values 128..255 become -128..-1 and atomicAdd writes up to 512 bytes before the start of the histogram.
#include <cuda_runtime.h>

__global__ void histogram_global(const char* input, unsigned int* histogram, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const int key = input[i];                           // BUG: -128..127, not 0..255
        atomicAdd(&histogram[key], 1u);
    }
}

extern "C" void solve(const unsigned char* input, unsigned int* histogram, int N) {
    const int threads = 256;
    histogram_global<<<(N + threads - 1) / threads, threads>>>(
        reinterpret_cast<const char*>(input), histogram, N);
}
