// ReLU staged through a static __shared__ tile. VARIANT 0 is correct; 1 writes one element past
// the tile; 2 has every thread set one shared flag to the same value (harmless, not a race);
// 3 has every thread write its own index into that flag (a race).
#include <cuda_runtime.h>

__global__ void relu_tile(const float* in, float* out, int n) {
    __shared__ float tile[8][32];
    __shared__ int flag;
    const int t = threadIdx.x;
    const int i = blockIdx.x * blockDim.x + t;
#if VARIANT == 1
    tile[t / 32][t % 32 + 1] = i < n ? in[i] : 0.0f;   // the overflowing line
#else
    tile[t / 32][t % 32] = i < n ? in[i] : 0.0f;
#endif
#if VARIANT == 2
    flag = 1;
#elif VARIANT == 3
    flag = t;
#endif
    __syncthreads();
    if (i < n) out[i] = fmaxf(tile[t / 32][t % 32], 0.0f);
}

extern "C" void solve(const float* input, float* output, int N) {
    relu_tile<<<(N + 255) / 256, 256>>>(input, output, N);
}
