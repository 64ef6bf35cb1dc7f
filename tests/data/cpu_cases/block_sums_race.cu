// Sum reduction whose blocks each add their partial sum into output[0] with a plain `+=`: the
// blocks race on one global location (VARIANT 0), or publish through an atomic (VARIANT 1).
#include <cuda_runtime.h>

__global__ void add_blocks(const float* in, float* out, int n) {
    __shared__ float partial[256];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    partial[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
#if VARIANT == 1
    if (threadIdx.x == 0) atomicAdd(out, partial[0]);
#else
    if (threadIdx.x == 0) out[0] += partial[0];   // the racing line
#endif
}

extern "C" void solve(const float* input, float* output, int N) {
    cudaMemset(output, 0, sizeof(float));
    add_blocks<<<(N + 255) / 256, 256>>>(input, output, N);
}
