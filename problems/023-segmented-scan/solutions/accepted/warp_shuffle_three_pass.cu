// Segmented exclusive scan in three passes, with warp shuffles inside each tile.
//
// A segmented scan is an ordinary scan under the operator on (head flag, value) pairs
//     (fa, va) (+) (fb, vb) = (fa | fb, fb ? vb : va + vb)         (a comes before b)
// which is associative, so every trick of the plain scan carries over:
//   pass 1: each block scans a 1024-element tile (4 items per thread, warp scans with
//           __shfl_up_sync, a scan of the 8 warp totals) and records, for its tile, the pair
//           (any head in the tile?, sum after the tile's last head) and where its first head is;
//   pass 2: the tile pairs are scanned (inclusive) with the same operator, recursively;
//   pass 3: the carry of the tiles before is added to the elements of a tile that come
//           before its first head - and only to those: a head stops the carry.
#include <cuda_runtime.h>

constexpr int kThreads = 256;
constexpr int kItems = 4;
constexpr int kTile = kThreads * kItems;   // 1024 elements per tile
constexpr int kWarps = kThreads / 32;
constexpr unsigned kFull = 0xffffffffu;

struct Pair {
    int f;   // 1 if a segment head lies in the range
    int v;   // sum of the range's elements after its last head (all of them if no head)
};

__device__ __forceinline__ Pair combine(Pair a, Pair b) {   // a comes first
    return Pair{a.f | b.f, b.f ? b.v : a.v + b.v};
}

__device__ __forceinline__ Pair warp_inclusive(Pair p, int lane) {
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        Pair up;
        up.f = __shfl_up_sync(kFull, p.f, d);
        up.v = __shfl_up_sync(kFull, p.v, d);
        if (lane >= d) p = combine(up, p);
    }
    return p;
}

// Scans every tile on its own. exclusive != 0: out gets the exclusive result, else the
// inclusive one. When tile_f is not null, writes the tile's pair and the tile-local index of
// its first head (kTile if it has none). in and out may be the same array.
__global__ void __launch_bounds__(kThreads)
scan_tiles(const int* flags, const int* in, int* out, int n, int exclusive,
           int* tile_f, int* tile_v, int* tile_first_head) {
    __shared__ Pair warp_pairs[kWarps];
    __shared__ int first_head;
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    const long long tile_start = (long long)blockIdx.x * kTile;
    const long long base = tile_start + (long long)t * kItems;
    if (t == 0) first_head = kTile;

    int x[kItems], f[kItems];
    Pair mine{0, 0};
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
        const long long i = base + k;
        x[k] = i < n ? in[i] : 0;
        f[k] = i < n ? (flags[i] != 0 || i == 0) : 0;
        mine = combine(mine, Pair{f[k], x[k]});
    }
    __syncthreads();                                   // first_head is initialised
#pragma unroll
    for (int k = 0; k < kItems; ++k)
        if (f[k]) { atomicMin(&first_head, t * kItems + k); break; }

    const Pair inclusive = warp_inclusive(mine, lane);
    if (lane == 31) warp_pairs[warp] = inclusive;
    __syncthreads();
    if (warp == 0) {                                   // exclusive scan of the warp totals
        Pair w = lane < kWarps ? warp_pairs[lane] : Pair{0, 0};
        Pair w_inc = warp_inclusive(w, lane);
        Pair w_exc;
        w_exc.f = __shfl_up_sync(kFull, w_inc.f, 1);
        w_exc.v = __shfl_up_sync(kFull, w_inc.v, 1);
        if (lane == 0) w_exc = Pair{0, 0};
        if (lane < kWarps) warp_pairs[lane] = w_exc;
        if (lane == kWarps - 1 && tile_f != nullptr) {
            tile_f[blockIdx.x] = w_inc.f;
            tile_v[blockIdx.x] = w_inc.v;
        }
    }
    __syncthreads();

    // Everything before this thread's first item, inside the tile.
    Pair before;
    before.f = __shfl_up_sync(kFull, inclusive.f, 1);
    before.v = __shfl_up_sync(kFull, inclusive.v, 1);
    if (lane == 0) before = Pair{0, 0};
    before = combine(warp_pairs[warp], before);

    int running = before.v;
#pragma unroll
    for (int k = 0; k < kItems; ++k) {
        const long long i = base + k;
        if (f[k]) running = 0;
        if (exclusive) {
            if (i < n) out[i] = running;
            running += x[k];
        } else {
            running += x[k];
            if (i < n) out[i] = running;
        }
    }
    if (t == 0 && tile_first_head != nullptr) tile_first_head[blockIdx.x] = first_head;
}

// Block b adds the inclusive result at the end of tile b to the head-free start of tile b + 1.
__global__ void __launch_bounds__(kThreads)
add_carry(int* out, const int* carry, const int* tile_first_head, int n) {
    const int tile = blockIdx.x + 1;
    const int stop = tile_first_head[tile];
    const int c = carry[blockIdx.x];
    for (int j = threadIdx.x; j < stop; j += kThreads) {
        const long long i = (long long)tile * kTile + j;
        if (i < n) out[i] += c;
    }
}

static void scan_level(const int* flags, const int* in, int* out, int n, int exclusive, int* scratch) {
    const int tiles = (n + kTile - 1) / kTile;
    if (tiles == 1) {
        scan_tiles<<<1, kThreads>>>(flags, in, out, n, exclusive, nullptr, nullptr, nullptr);
        return;
    }
    int* tf = scratch;
    int* tv = scratch + tiles;
    int* first = scratch + 2 * (size_t)tiles;
    scan_tiles<<<tiles, kThreads>>>(flags, in, out, n, exclusive, tf, tv, first);
    scan_level(tf, tv, tv, tiles, 0, scratch + 3 * (size_t)tiles);   // inclusive, in place
    add_carry<<<tiles - 1, kThreads>>>(out, tv, first, n);
}

extern "C" void solve(const int* input, const int* flags, int* output, int n) {
    if (n <= 0) return;
    size_t scratch_ints = 0;
    for (long long m = n; m > kTile;) {
        m = (m + kTile - 1) / kTile;
        scratch_ints += 3 * (size_t)m;
    }
    int* scratch = nullptr;
    if (scratch_ints > 0 && cudaMalloc(&scratch, scratch_ints * sizeof(int)) != cudaSuccess) return;
    scan_level(flags, input, output, n, 1, scratch);
    if (scratch != nullptr) cudaFree(scratch);
}
