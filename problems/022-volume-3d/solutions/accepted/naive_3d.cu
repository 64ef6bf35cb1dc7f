#include <cuda_runtime.h>

// One thread per voxel on a 3-D grid of 32 x 4 x 4 blocks: threadIdx.x runs along x, the
// contiguous axis, so a warp reads 32 neighbouring floats. The linear index is computed in size_t:
// a volume may hold more than 2^31 voxels, and (z*ny + y)*nx + x would overflow an int.
__global__ void max_filter_3d(const float* in, float* out, int nx, int ny, int nz) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    const int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= nx || y >= ny || z >= nz) return;
    const size_t row = (size_t)nx;
    const size_t plane = (size_t)nx * ny;
    const size_t i = ((size_t)z * ny + y) * nx + x;
    float m = in[i];
    if (x > 0)      m = fmaxf(m, in[i - 1]);        // a neighbour outside is clamped onto the
    if (x + 1 < nx) m = fmaxf(m, in[i + 1]);        // voxel itself: it adds nothing to the max
    if (y > 0)      m = fmaxf(m, in[i - row]);
    if (y + 1 < ny) m = fmaxf(m, in[i + row]);
    if (z > 0)      m = fmaxf(m, in[i - plane]);
    if (z + 1 < nz) m = fmaxf(m, in[i + plane]);
    out[i] = m;
}

extern "C" void solve(const float* input, float* output, int nx, int ny, int nz) {
    const dim3 block(32, 4, 4);
    const dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y, (nz + block.z - 1) / block.z);
    max_filter_3d<<<grid, block>>>(input, output, nx, ny, nz);
}
