// expect: WA
// Mistake: sizes the launch by N (the length of the table) instead of M (the number of indices and outputs). Right when N == M; when M > N the outputs past N are never written.
#include <cuda_runtime.h>

__global__ void gather(const float* values, const int* indices, float* output, int N, int M) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N && i < M) output[i] = values[indices[i]];   // BUG: the bound is M, not N
}

extern "C" void solve(const float* values, const int* indices, float* output, int N, int M) {
    const int threads = 256;
    gather<<<(N + threads - 1) / threads, threads>>>(values, indices, output, N, M);
}
