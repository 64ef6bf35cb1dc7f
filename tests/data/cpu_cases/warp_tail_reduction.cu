// Sum reduction whose last five steps run in one warp. VARIANT 0 relies on the warp running in
// lockstep (no __syncwarp); VARIANT 1 reads, syncs the warp, then writes, as Volta+ requires.
#include <cuda_runtime.h>

__global__ void reduce_tail(const float* in, float* out, int n) {
    __shared__ float sm[64];
    const int t = threadIdx.x;
    float acc = 0.0f;
    for (int i = blockIdx.x * 64 + t; i < n; i += gridDim.x * 64) acc += in[i];
    sm[t] = acc;
    __syncthreads();
    if (t < 32) {
        for (int step = 32; step > 0; step >>= 1) {
#if VARIANT == 1
            const float sum = sm[t] + sm[t + step];
            __syncwarp();
            sm[t] = sum;
            __syncwarp();
#else
            sm[t] += sm[t + step];   // the lockstep assumption
#endif
        }
    }
    if (t == 0) atomicAdd(out, sm[0]);
}

extern "C" void solve(const float* input, float* output, int N) {
    cudaMemset(output, 0, sizeof(float));
    reduce_tail<<<64, 64>>>(input, output, N);
}
