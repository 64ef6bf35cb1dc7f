// expect: builds
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void relu_kernel(const float* input, float* output, int N) {
    auto tile = cg::tiled_partition<16>(cg::this_thread_block());
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = i < N ? input[i] : 0.0f;
    float other = tile.shfl_down(x, 1);
    unsigned any = tile.any(x > 0.0f);
    tile.sync();
    if (i < N) output[i] = fmaxf(x, 0.0f) + 0.0f * (other + any + tile.thread_rank() + tile.size());
}

extern "C" void solve(const float* input, float* output, int N) {
    relu_kernel<<<(N + 255) / 256, 256>>>(input, output, N);
}
