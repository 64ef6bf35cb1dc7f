// expect: WA
// Vectorized grid-stride loop whose index counts float4s but whose stride is counted in floats (4 x the thread count): after the first sweep it jumps over three sweeps' worth of float4s, which are never updated once n exceeds 4 x the grid's thread count.
#include <cuda_runtime.h>

__global__ void saxpy_vec4(int n, float a, const float4* x4, float4* y4, const float* x, float* y) {
    const int threads = blockDim.x * gridDim.x;
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    const int n4 = n / 4;
    for (int i = tid; i < n4; i += 4 * threads) {          // BUG: stride in floats, i in float4s
        const float4 xv = x4[i];
        float4 yv = y4[i];
        yv.x = a * xv.x + yv.x;
        yv.y = a * xv.y + yv.y;
        yv.z = a * xv.z + yv.z;
        yv.w = a * xv.w + yv.w;
        y4[i] = yv;
    }
    for (int i = 4 * n4 + tid; i < n; i += threads)
        y[i] = a * x[i] + y[i];
}

extern "C" void solve(int n, float a, const float* x, float* y) {
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    const int threads = 256;
    int blocks = 4 * sms;
    const int needed = (n / 4 + threads) / threads;
    if (blocks > needed) blocks = needed;
    saxpy_vec4<<<blocks, threads>>>(n, a, reinterpret_cast<const float4*>(x), reinterpret_cast<float4*>(y), x, y);
}
