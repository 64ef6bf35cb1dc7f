// expect: builds
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__global__ void relu_kernel(const float* input, float* output, int N) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int i = block.group_index().x * block.size() + block.thread_rank();
    float x = i < N ? input[i] : 0.0f;
    float warp_max = cg::reduce(warp, x, cg::greater<float>());
    block.sync();
    if (i < N) output[i] = fmaxf(x, 0.0f) + 0.0f * warp_max;
}

extern "C" void solve(const float* input, float* output, int N) {
    relu_kernel<<<(N + 255) / 256, 256>>>(input, output, N);
}
