// expect: RE
// message: stack overflow
// what: unbounded recursion in a kernel
#include <cuda_runtime.h>

__global__ void relu(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = fmaxf(in[i], 0.0f);
}

// The attack's success would change the answer: a succeeded attack gives WA, a blocked one AC.
static void answer(const float* input, float* output, int N, bool escaped) {
    relu<<<(N + 255) / 256, 256>>>(input, escaped ? output + 1 : output, escaped ? N - 1 : N);
}

__device__ float down(int d) { volatile float pad[64]; pad[d % 64] = d; return d == 0 ? pad[0] : down(d - 1) + pad[d % 64]; }
__global__ void deep(float* out, int d) { out[0] = down(d); }

extern "C" void solve(const float* input, float* output, int N) {
    deep<<<1, 1>>>(output, 1 << 30);
    answer(input, output, N, false);
}
