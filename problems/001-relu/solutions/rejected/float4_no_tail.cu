// expect: WA
// Mistake: processes N / 4 float4 chunks and forgets the last N % 4 elements, which keep the judge's sentinel.
#include <cuda_runtime.h>

__global__ void relu4(const float4* in, float4* out, int n4) {
    int stride = gridDim.x * blockDim.x;
    for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n4; k += stride) {
        float4 v = in[k];
        v.x = fmaxf(v.x, 0.0f);
        v.y = fmaxf(v.y, 0.0f);
        v.z = fmaxf(v.z, 0.0f);
        v.w = fmaxf(v.w, 0.0f);
        out[k] = v;
    }
}

extern "C" void solve(const float* input, float* output, int N) {
    int n4 = N / 4;              // rounds down: the tail is lost
    if (n4 == 0) return;
    int grid = (n4 + 255) / 256;
    if (grid > 2048) grid = 2048;
    relu4<<<grid, 256>>>(reinterpret_cast<const float4*>(input), reinterpret_cast<float4*>(output), n4);
}
