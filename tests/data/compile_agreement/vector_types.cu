// expect: builds
#include <cuda_runtime.h>

__global__ void relu4(const float4* input, float4* output, int quads) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= quads) return;
    float4 v = input[i];
    output[i] = make_float4(fmaxf(v.x, 0.f), fmaxf(v.y, 0.f), fmaxf(v.z, 0.f), fmaxf(v.w, 0.f));
}

__global__ void relu_tail(const float* input, float* output, int from, int N) {
    int i = from + blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) output[i] = fmaxf(input[i], 0.0f);
}

extern "C" void solve(const float* input, float* output, int N) {
    int quads = N / 4;
    if (quads) relu4<<<(quads + 255) / 256, 256>>>(reinterpret_cast<const float4*>(input), reinterpret_cast<float4*>(output), quads);
    if (N % 4) relu_tail<<<1, 4>>>(input, output, quads * 4, N);
}
