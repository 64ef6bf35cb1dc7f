// expect: WA
// x and z swapped in the linear index: (x*ny + y)*nz + z treats x as the slowest axis, and the neighbour offsets follow that mistake (±1 for z, ±ny*nz for x). Every index stays inside the volume, but unless nx == nz the wrong voxels are compared.
#include <cuda_runtime.h>

__global__ void max_filter_3d(const float* in, float* out, int nx, int ny, int nz) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    const int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= nx || y >= ny || z >= nz) return;
    const size_t i = ((size_t)x * ny + y) * nz + z;       // BUG: should be (z*ny + y)*nx + x
    const size_t xstep = (size_t)ny * nz, ystep = (size_t)nz, zstep = 1;
    float m = in[i];
    if (x > 0)      m = fmaxf(m, in[i - xstep]);
    if (x + 1 < nx) m = fmaxf(m, in[i + xstep]);
    if (y > 0)      m = fmaxf(m, in[i - ystep]);
    if (y + 1 < ny) m = fmaxf(m, in[i + ystep]);
    if (z > 0)      m = fmaxf(m, in[i - zstep]);
    if (z + 1 < nz) m = fmaxf(m, in[i + zstep]);
    out[i] = m;
}

extern "C" void solve(const float* input, float* output, int nx, int ny, int nz) {
    const dim3 block(32, 4, 4);
    const dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y, (nz + block.z - 1) / block.z);
    max_filter_3d<<<grid, block>>>(input, output, nx, ny, nz);
}
