// A shared-memory sum tree missing its barriers whose loads and stores are memcpy calls of a size
// known only at run time: calls, not accesses, so the memory observer does not see them; running
// the threads in different orders still shows the race.
#include <cuda_runtime.h>
#include <cstring>

__global__ void tree_by_memcpy(const float* in, float* out, int n, size_t width) {
    __shared__ float sm[256];
    const int t = threadIdx.x;
    float mine = 0.0f;
    for (int i = blockIdx.x * 256 + t; i < n; i += gridDim.x * 256) mine += in[i];
    memcpy(&sm[t], &mine, width);
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
        if (t < s) {
            float other;
            memcpy(&other, &sm[t + s], width);
            mine += other;
            memcpy(&sm[t], &mine, width);   // no barrier before the next level reads it
        }
    }
    if (t == 0) atomicAdd(out, mine);
}

extern "C" void solve(const float* input, float* output, int N) {
    cudaMemset(output, 0, sizeof(float));
    tree_by_memcpy<<<4, 256>>>(input, output, N, sizeof(float));
}
