// Segmented exclusive scan, the straightforward way: a Hillis-Steele scan of each 1024-element
// tile in shared memory (one element per thread, two barriers per step), then the same
// three-pass structure as a plain device-wide scan.
//
// Each element carries a pair (f, v): f = "a segment head lies in my range", v = "sum of my
// range after its last head". Combining an earlier pair a with a later pair b gives
// (a.f | b.f, b.f ? b.v : a.v + b.v). Scanning the pairs gives the inclusive segmented scan;
// subtracting the element itself gives the exclusive one.
#include <cuda_runtime.h>

constexpr int kTile = 1024;   // one element per thread

// Inclusive segmented scan of each tile into out; tile pair and first head when tile_f != null.
__global__ void scan_tiles(const int* flags, const int* in, int* out, int n,
                           int* tile_f, int* tile_v, int* tile_first_head) {
    __shared__ int sf[kTile];
    __shared__ int sv[kTile];
    __shared__ int first_head;
    const int t = threadIdx.x;
    const long long i = (long long)blockIdx.x * kTile + t;
    if (t == 0) first_head = kTile;
    const int f = i < n ? (flags[i] != 0 || i == 0) : 0;
    sf[t] = f;
    sv[t] = i < n ? in[i] : 0;
    __syncthreads();
    if (f) atomicMin(&first_head, t);

    for (int d = 1; d < kTile; d <<= 1) {
        int pf = 0, pv = 0;
        if (t >= d) { pf = sf[t - d]; pv = sv[t - d]; }
        __syncthreads();                              // everyone has read before anyone writes
        if (t >= d) {
            if (!sf[t]) sv[t] += pv;
            sf[t] |= pf;
        }
        __syncthreads();                              // everyone has written before the next read
    }
    if (i < n) out[i] = sv[t];
    if (t == kTile - 1 && tile_f != nullptr) {
        tile_f[blockIdx.x] = sf[t];
        tile_v[blockIdx.x] = sv[t];
        tile_first_head[blockIdx.x] = first_head;
    }
}

// Tile b + 1 gets the inclusive result at the end of tile b, up to its first head.
__global__ void add_carry(int* out, const int* carry, const int* tile_first_head, int n) {
    const int tile = blockIdx.x + 1;
    const long long i = (long long)tile * kTile + threadIdx.x;
    if (i < n && threadIdx.x < tile_first_head[tile]) out[i] += carry[blockIdx.x];
}

__global__ void to_exclusive(const int* in, int* out, int n) {
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] -= in[i];
}

// Inclusive segmented scan of in[0, n) into out.
static void scan_level(const int* flags, const int* in, int* out, int n, int* scratch) {
    const int tiles = (n + kTile - 1) / kTile;
    if (tiles == 1) {
        scan_tiles<<<1, kTile>>>(flags, in, out, n, nullptr, nullptr, nullptr);
        return;
    }
    int* tf = scratch;
    int* tv = scratch + tiles;
    int* first = scratch + 2 * (size_t)tiles;
    scan_tiles<<<tiles, kTile>>>(flags, in, out, n, tf, tv, first);
    scan_level(tf, tv, tv, tiles, scratch + 3 * (size_t)tiles);
    add_carry<<<tiles - 1, kTile>>>(out, tv, first, n);
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
    scan_level(flags, input, output, n, scratch);
    to_exclusive<<<(n + 255) / 256, 256>>>(input, output, n);
    if (scratch != nullptr) cudaFree(scratch);
}
