// expect: ok
// cuda_fp16.h in device code, and __half on the host side.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__global__ void through_half(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = static_cast<int>(__half2float(__float2half(static_cast<float>(in[i]))));
}

extern "C" void solve(const int* input, int* output, int n) {
    __half one = __float2half(1.0f);
    if (__half2float(one) != 1.0f) return;
    through_half<<<(n + 255) / 256, 256>>>(input, output, n);
}
