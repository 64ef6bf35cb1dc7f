// One thread per output element. The reads of indices and the writes of output are coalesced
// (consecutive lanes, consecutive addresses); the reads of values go wherever the indices point.
#include <cuda_runtime.h>

__global__ void gather(const float* __restrict__ values, const int* __restrict__ indices,
                       float* __restrict__ output, int M) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < M) output[i] = values[indices[i]];
}

extern "C" void solve(const float* values, const int* indices, float* output, int N, int M) {
    const int threads = 256;
    const int blocks = (int)(((long long)M + threads - 1) / threads);
    gather<<<blocks, threads>>>(values, indices, output, M);
}
