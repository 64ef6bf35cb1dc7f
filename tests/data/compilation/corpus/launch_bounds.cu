// expect: ok
// __launch_bounds__ on a plain and on a template kernel.
#include <cuda_runtime.h>

__global__ void __launch_bounds__(256, 2) plus_one(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] + 1;
}

template <int THREADS>
__global__ void __launch_bounds__(THREADS) plus_two(const int* in, int* out, int n) {
    int i = blockIdx.x * THREADS + threadIdx.x;
    if (i < n) out[i] = in[i] + 2;
}

extern "C" void solve(const int* input, int* output, int n) {
    plus_one<<<(n + 255) / 256, 256>>>(input, output, n);
    plus_two<128><<<(n + 127) / 128, 128>>>(input, output, n);
}
