#include <cuda_runtime.h>
#include <cmath>

// "2.5-D" blocking: a 2-D grid of 32 x 8 threads covers (x, y), and each thread walks a chunk of
// up to 64 slices along z, keeping the voxel below, the current one and the one above in
// registers. Each step loads one new voxel along z instead of three; the x and y neighbours come
// from the same and adjacent rows, which the warp's neighbours have just read (L1/L2 hits).
// blockIdx.z picks the z chunk, so there are enough blocks even for thin volumes.
// All index arithmetic is done in size_t (the volume may exceed 2^31 voxels).
constexpr int kChunk = 64;

__global__ void max_filter_stream(const float* __restrict__ in, float* __restrict__ out, int nx, int ny, int nz) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= nx || y >= ny) return;
    const int z0 = blockIdx.z * kChunk;
    const int z1 = min(z0 + kChunk, nz);
    const size_t row = (size_t)nx;
    const size_t plane = (size_t)nx * ny;
    size_t i = ((size_t)z0 * ny + y) * nx + x;

    float cur = in[i];
    float below = z0 > 0 ? in[i - plane] : -INFINITY;      // -inf: no neighbour there
    for (int z = z0; z < z1; ++z, i += plane) {
        const float above = z + 1 < nz ? in[i + plane] : -INFINITY;
        float m = fmaxf(cur, fmaxf(below, above));
        if (x > 0)      m = fmaxf(m, in[i - 1]);
        if (x + 1 < nx) m = fmaxf(m, in[i + 1]);
        if (y > 0)      m = fmaxf(m, in[i - row]);
        if (y + 1 < ny) m = fmaxf(m, in[i + row]);
        out[i] = m;
        below = cur;
        cur = above;
    }
}

extern "C" void solve(const float* input, float* output, int nx, int ny, int nz) {
    const dim3 block(32, 8);
    const dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y, (nz + kChunk - 1) / kChunk);
    max_filter_stream<<<grid, block>>>(input, output, nx, ny, nz);
}
