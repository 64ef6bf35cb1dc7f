// expect: ok
// Cooperative groups: block and tiled-partition synchronization and shuffles.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void warp_prefix(const int* in, int* out, int n) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    for (int d = 1; d < 32; d <<= 1) {
        int up = warp.shfl_up(v, d);
        if (warp.thread_rank() >= d) v += up;
    }
    block.sync();
    if (i < n) out[i] = v;
}

extern "C" void solve(const int* input, int* output, int n) {
    warp_prefix<<<(n + 255) / 256, 256>>>(input, output, n);
}
