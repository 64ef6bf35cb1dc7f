// expect: RE
// No bounds check: the grid is rounded up to whole 32 x 8 blocks, and the threads past the bottom edge write gray bytes past the end of the image.
#include <cuda_runtime.h>

__global__ void rgb_to_gray(const uchar3* rgb, unsigned char* gray, int width, int height) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    // BUG: missing `if (x >= width || y >= height) return;`
    const int i = y * width + x;
    const uchar3 p = rgb[i];
    gray[i] = (unsigned char)(0.299f * p.x + 0.587f * p.y + 0.114f * p.z + 0.5f);
}

extern "C" void solve(const unsigned char* rgb, unsigned char* gray, int width, int height) {
    const dim3 block(32, 8);
    const dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
    rgb_to_gray<<<grid, block>>>(reinterpret_cast<const uchar3*>(rgb), gray, width, height);
}
