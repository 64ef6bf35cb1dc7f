// One warp per row, written with cooperative groups: the block is split into tiles of 32
// threads (cg::tiled_partition<32>), each tile strides over its row, and cg::reduce adds the 32
// partial sums. A tile whose row is past the end leaves as a whole, so every collective runs
// with all 32 of its threads.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

constexpr int kThreads = 256;
constexpr int kRowsPerBlock = kThreads / 32;

__global__ void __launch_bounds__(kThreads)
row_sums_cg(const float* __restrict__ matrix, float* row_sums, int rows, int cols) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    const long long row = (long long)blockIdx.x * kRowsPerBlock + warp.meta_group_rank();
    if (row >= rows) return;
    const float* r = matrix + row * cols;
    float s = 0.0f;
    for (int j = warp.thread_rank(); j < cols; j += 32) s += r[j];   // coalesced: 32 in a row
    s = cg::reduce(warp, s, cg::plus<float>());
    if (warp.thread_rank() == 0) row_sums[row] = s;
}

extern "C" void solve(const float* matrix, float* row_sums, int rows, int cols) {
    const int blocks = (rows + kRowsPerBlock - 1) / kRowsPerBlock;
    row_sums_cg<<<blocks, kThreads>>>(matrix, row_sums, rows, cols);
}
