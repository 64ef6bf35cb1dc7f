// Style: CUB block primitives -- LSD radix sort whose per-tile stable digit sort is cub::BlockRadixSort(begin_bit, end_bit).
#include <cuda_runtime.h>
#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_scan.cuh>

constexpr int RADIX_BITS = 8;
constexpr int DIGITS = 1 << RADIX_BITS;      // 256 buckets per pass, 4 passes
constexpr int THREADS = 256;
constexpr int ITEMS = 8;
constexpr int TILE = THREADS * ITEMS;        // 2048 keys per block
constexpr int SCAN_THREADS = 1024;

__device__ __forceinline__ unsigned digitOf(unsigned key, int shift) { return (key >> shift) & (DIGITS - 1); }

// counts[d * tiles + tile] = how many keys of this tile have digit d
__global__ void countDigits(const unsigned* keys, unsigned* counts, int n, int shift, int tiles) {
    __shared__ unsigned hist[DIGITS];
    hist[threadIdx.x] = 0;   // THREADS == DIGITS
    __syncthreads();
    const long long base = (long long)blockIdx.x * TILE;
    for (int j = threadIdx.x; j < TILE; j += THREADS)
        if (base + j < n) atomicAdd(&hist[digitOf(keys[base + j], shift)], 1u);
    __syncthreads();
    counts[(long long)threadIdx.x * tiles + blockIdx.x] = hist[threadIdx.x];
}

struct RunningTotal {
    unsigned total;
    __device__ unsigned operator()(unsigned chunk) { unsigned before = total; total += chunk; return before; }
};

// Block d turns row d of counts into exclusive offsets (over the tiles) and writes the row's total.
__global__ void scanRows(unsigned* counts, unsigned* digitTotals, int tiles) {
    using Scan = cub::BlockScan<unsigned, SCAN_THREADS>;
    __shared__ typename Scan::TempStorage temp;
    unsigned* row = counts + (long long)blockIdx.x * tiles;
    RunningTotal prefix{0u};
    for (int start = 0; start < tiles; start += SCAN_THREADS) {
        const int i = start + threadIdx.x;
        unsigned v = i < tiles ? row[i] : 0u;
        Scan(temp).ExclusiveSum(v, v, prefix);
        if (i < tiles) row[i] = v;
        __syncthreads();
    }
    if (threadIdx.x == 0) digitTotals[blockIdx.x] = prefix.total;   // thread 0 ran the callback each time
}

__global__ void __launch_bounds__(THREADS)
scatterTile(const unsigned* in, unsigned* out, const unsigned* offsets, const unsigned* digitTotals,
            int n, int shift, int tiles) {
    using Sort = cub::BlockRadixSort<unsigned, THREADS, ITEMS>;
    using Scan = cub::BlockScan<unsigned, THREADS>;
    __shared__ union {
        typename Sort::TempStorage sort;
        typename Scan::TempStorage scan;
        unsigned keys[TILE];
    } temp;
    __shared__ unsigned globalStart[DIGITS];   // where digit d of this tile starts in out
    __shared__ unsigned localStart[DIGITS];    // where digit d starts in the sorted tile

    const long long base = (long long)blockIdx.x * TILE;
    const int valid = (int)min((long long)TILE, n - base);

    // digit bases: exclusive scan of the digit totals (same for every block)
    unsigned digitBase;
    Scan(temp.scan).ExclusiveSum(digitTotals[threadIdx.x], digitBase);
    globalStart[threadIdx.x] = digitBase + offsets[(long long)threadIdx.x * tiles + blockIdx.x];
    __syncthreads();

    // Padding keys have every bit set: the stable sort puts them after every real key.
    unsigned items[ITEMS];
    cub::LoadDirectBlocked(threadIdx.x, in + base, items, valid, 0xffffffffu);
    Sort(temp.sort).Sort(items, shift, shift + RADIX_BITS);   // stable, by this pass's digit only
    __syncthreads();
    for (int i = 0; i < ITEMS; ++i) temp.keys[threadIdx.x * ITEMS + i] = items[i];
    __syncthreads();

    for (int j = threadIdx.x; j < valid; j += THREADS) {
        const unsigned d = digitOf(temp.keys[j], shift);
        if (j == 0 || digitOf(temp.keys[j - 1], shift) != d) localStart[d] = j;
    }
    __syncthreads();
    for (int j = threadIdx.x; j < valid; j += THREADS) {
        const unsigned key = temp.keys[j];
        const unsigned d = digitOf(key, shift);
        out[globalStart[d] + (j - localStart[d])] = key;
    }
}

extern "C" void solve(const unsigned int* input, unsigned int* output, int N) {
    const int tiles = (N + TILE - 1) / TILE;
    unsigned *tmp, *counts, *digitTotals;
    cudaMalloc(&tmp, (size_t)N * sizeof(unsigned));
    cudaMalloc(&counts, (size_t)DIGITS * tiles * sizeof(unsigned));
    cudaMalloc(&digitTotals, DIGITS * sizeof(unsigned));

    const unsigned* src = input;
    unsigned* dst = tmp;
    for (int shift = 0; shift < 32; shift += RADIX_BITS) {   // 4 passes: input->tmp->out->tmp->out
        countDigits<<<tiles, THREADS>>>(src, counts, N, shift, tiles);
        scanRows<<<DIGITS, SCAN_THREADS>>>(counts, digitTotals, tiles);
        scatterTile<<<tiles, THREADS>>>(src, dst, counts, digitTotals, N, shift, tiles);
        src = dst;
        dst = (dst == tmp) ? output : tmp;
    }
    cudaFree(tmp);
    cudaFree(counts);
    cudaFree(digitTotals);
}
