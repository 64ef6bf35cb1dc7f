// expect: WA
// Each block scans its own 1024-element tile correctly, but nothing adds the totals of the
// tiles before it: right for n <= 1024, wrong as soon as a second block is needed.
#include <cuda_runtime.h>

constexpr int kTile = 1024;

__device__ __forceinline__ int warp_inclusive_scan(int v, int lane) {
    for (int d = 1; d < 32; d <<= 1) {
        int up = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += up;
    }
    return v;
}

__global__ void scan_tile(const int* in, int* out, int n) {
    __shared__ int warp_base[32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int i = blockIdx.x * kTile + threadIdx.x;
    const int x = i < n ? in[i] : 0;
    const int inclusive = warp_inclusive_scan(x, lane);
    if (lane == 31) warp_base[warp] = inclusive;
    __syncthreads();
    if (warp == 0) {
        const int total = warp_base[lane];
        warp_base[lane] = warp_inclusive_scan(total, lane) - total;
    }
    __syncthreads();
    if (i < n) out[i] = warp_base[warp] + inclusive - x;   // missing: + sum of earlier tiles
}

extern "C" void solve(const int* input, int* output, int n) {
    scan_tile<<<(n + kTile - 1) / kTile, kTile>>>(input, output, n);
}
