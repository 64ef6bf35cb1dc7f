// Three-pass exclusive scan ("scan-then-propagate") with 1024-element tiles.
//   pass 1: every block scans its own tile (warp scans with __shfl_up_sync, then a scan of
//           the 32 warp totals) and writes the tile total to a small array;
//   pass 2: the tile totals are scanned by the same routine, recursively: for n = 10^8 there
//           are 97,657 tiles, whose totals need 96 tiles, whose totals fit in a single tile;
//   pass 3: every block adds the scanned total of the tiles before it.
#include <cuda_runtime.h>

constexpr int kTile = 1024;   // one element per thread, 1024 threads per block
constexpr unsigned kFull = 0xffffffffu;

__device__ __forceinline__ int warp_inclusive_scan(int v, int lane) {
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        int up = __shfl_up_sync(kFull, v, d);
        if (lane >= d) v += up;
    }
    return v;
}

// Exclusive scan of each tile; writes the tile's total to tile_sums[blockIdx.x] unless it is
// null. in and out may be the same array (each thread reads its element before writing it).
__global__ void scan_tiles(const int* in, int* out, int* tile_sums, int n) {
    __shared__ int warp_base[32];
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const long long i = (long long)blockIdx.x * kTile + threadIdx.x;

    const int x = i < n ? in[i] : 0;
    const int inclusive = warp_inclusive_scan(x, lane);
    if (lane == 31) warp_base[warp] = inclusive;        // total of this warp
    __syncthreads();

    if (warp == 0) {                                     // scan the 32 warp totals
        const int total = warp_base[lane];
        const int scanned = warp_inclusive_scan(total, lane);
        warp_base[lane] = scanned - total;               // what the warps before this one add up to
        if (lane == 31 && tile_sums != nullptr) tile_sums[blockIdx.x] = scanned;
    }
    __syncthreads();

    if (i < n) out[i] = warp_base[warp] + inclusive - x;
}

// Adds the exclusive prefix of the tile totals to every element of tiles 1, 2, ...
__global__ void add_tile_offsets(int* out, const int* tile_offsets, int n) {
    const long long i = (long long)(blockIdx.x + 1) * kTile + threadIdx.x;   // tile 0 adds 0
    if (i < n) out[i] += tile_offsets[blockIdx.x + 1];
}

// Exclusive scan of in[0, n) into out; scratch holds room for the totals of every level.
static void scan_level(const int* in, int* out, int n, int* scratch) {
    const int tiles = (n + kTile - 1) / kTile;
    if (tiles == 1) {
        scan_tiles<<<1, kTile>>>(in, out, nullptr, n);
        return;
    }
    int* sums = scratch;
    scan_tiles<<<tiles, kTile>>>(in, out, sums, n);
    scan_level(sums, sums, tiles, scratch + tiles);      // scan the totals in place
    add_tile_offsets<<<tiles - 1, kTile>>>(out, sums, n);
}

extern "C" void solve(const int* input, int* output, int n) {
    if (n <= 0) return;
    size_t scratch_ints = 0;
    for (long long m = n; m > kTile;) {                  // totals of every level above the first
        m = (m + kTile - 1) / kTile;
        scratch_ints += (size_t)m;
    }
    int* scratch = nullptr;
    if (scratch_ints > 0 && cudaMalloc(&scratch, scratch_ints * sizeof(int)) != cudaSuccess) return;
    scan_level(input, output, n, scratch);
    if (scratch != nullptr) cudaFree(scratch);
}
