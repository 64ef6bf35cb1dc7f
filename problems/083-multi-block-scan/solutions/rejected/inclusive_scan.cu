// expect: WA
// Computes the INCLUSIVE scan (output[i] includes input[i]); the task asks for the exclusive one.
#include <cuda_runtime.h>

constexpr int kTile = 1024;

__device__ __forceinline__ int warp_inclusive_scan(int v, int lane) {
    for (int d = 1; d < 32; d <<= 1) {
        int up = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += up;
    }
    return v;
}

__global__ void scan_tiles(const int* in, int* out, int* tile_sums, int n) {
    __shared__ int warp_base[32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long i = (long long)blockIdx.x * kTile + threadIdx.x;
    const int x = i < n ? in[i] : 0;
    const int inclusive = warp_inclusive_scan(x, lane);
    if (lane == 31) warp_base[warp] = inclusive;
    __syncthreads();
    if (warp == 0) {
        const int total = warp_base[lane];
        const int scanned = warp_inclusive_scan(total, lane);
        warp_base[lane] = scanned - total;
        if (lane == 31 && tile_sums != nullptr) tile_sums[blockIdx.x] = scanned;
    }
    __syncthreads();
    if (i < n) out[i] = warp_base[warp] + inclusive;   // BUG: inclusive, should subtract x
}

__global__ void add_tile_offsets(int* out, const int* tile_prefix, int n) {
    const long long i = (long long)(blockIdx.x + 1) * kTile + threadIdx.x;
    if (i < n) out[i] += tile_prefix[blockIdx.x];       // inclusive prefix of tile totals, shifted
}

static void scan_level(const int* in, int* out, int n, int* scratch) {
    const int tiles = (n + kTile - 1) / kTile;
    if (tiles == 1) {
        scan_tiles<<<1, kTile>>>(in, out, nullptr, n);
        return;
    }
    int* sums = scratch;
    scan_tiles<<<tiles, kTile>>>(in, out, sums, n);
    scan_level(sums, sums, tiles, scratch + tiles);
    add_tile_offsets<<<tiles - 1, kTile>>>(out, sums, n);
}

extern "C" void solve(const int* input, int* output, int n) {
    size_t scratch_ints = 0;
    for (long long m = n; m > kTile;) {
        m = (m + kTile - 1) / kTile;
        scratch_ints += (size_t)m;
    }
    int* scratch = nullptr;
    if (scratch_ints > 0) cudaMalloc(&scratch, scratch_ints * sizeof(int));
    scan_level(input, output, n, scratch);
    if (scratch != nullptr) cudaFree(scratch);
}
