// expect: ok
// Macros: an error-checking macro, an index macro, and a launch inside a macro.
#include <cuda_runtime.h>
#include <cstdio>

#define CUDA_CHECK(call)                                                            \
    do {                                                                            \
        cudaError_t err_ = (call);                                                  \
        if (err_ != cudaSuccess) printf("CUDA error %s\n", cudaGetErrorString(err_)); \
    } while (0)
#define GLOBAL_INDEX() (blockIdx.x * blockDim.x + threadIdx.x)
#define LAUNCH_COPY(grid, block, ...) copy_kernel<<<grid, block>>>(__VA_ARGS__)

__global__ void copy_kernel(const int* in, int* out, int n) {
    int i = GLOBAL_INDEX();
    if (i < n) out[i] = in[i];
}

extern "C" void solve(const int* input, int* output, int n) {
    LAUNCH_COPY((n + 255) / 256, 256, input, output, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
}
