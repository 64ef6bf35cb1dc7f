// expect: error "'T' is a template parameter of run"
#include <cuda_runtime.h>

template <typename T>
__global__ void copy(const T* in, T* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i];
}

template <typename T>
void run(const T* in, T* out, int n) {
    copy<T><<<(n + 255) / 256, 256>>>(in, out, n);  // <- error
}

extern "C" void solve(const int* input, int* output, int n) { run(input, output, n); }
