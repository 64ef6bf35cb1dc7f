#include <cuda_runtime.h>
#include <cstdint>

// Grid-stride loop over 16-byte float4 chunks; the last N % 4 elements (or all of them when
// a pointer is not 16-byte aligned) go through a scalar grid-stride loop.
__global__ void vadd4(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                      int n, int vec_n) {
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    const int stride = gridDim.x * blockDim.x;
    const float4* a4 = reinterpret_cast<const float4*>(a);
    const float4* b4 = reinterpret_cast<const float4*>(b);
    float4* c4 = reinterpret_cast<float4*>(c);
    for (int k = tid; k < vec_n; k += stride) {
        float4 x = a4[k], y = b4[k];
        c4[k] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
    for (int i = 4 * vec_n + tid; i < n; i += stride)
        c[i] = a[i] + b[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    if (N <= 0) return;
    uintptr_t bits = reinterpret_cast<uintptr_t>(A) | reinterpret_cast<uintptr_t>(B) | reinterpret_cast<uintptr_t>(C);
    int vec_n = (bits & 15) == 0 ? N / 4 : 0;
    int work = vec_n > 0 ? vec_n : N;
    const int block = 256;
    int grid = (work + block - 1) / block;
    if (grid > 132 * 16) grid = 132 * 16;
    if (grid < 1) grid = 1;
    vadd4<<<grid, block>>>(A, B, C, N, vec_n);
}
