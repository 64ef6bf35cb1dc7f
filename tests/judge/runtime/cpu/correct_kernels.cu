// Correct CUDA solutions the CPU backend must run exactly; one solve_* entry point each.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>

namespace cg = cooperative_groups;

// ---- map -----------------------------------------------------------------------------------
__global__ void relu(const float* __restrict__ x, float* __restrict__ y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = fmaxf(x[i], 0.0f);
}

extern "C" void solve_relu(const float* x, float* y, int n) {
    relu<<<(n + 255) / 256, 256>>>(x, y, n);
}

// ---- block reduction in shared memory, then a second pass over the partial sums ------------
template <int BLOCK>
__global__ void block_sum(const int* in, int* partial, int n) {
    __shared__ int s[BLOCK];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
}

extern "C" void solve_block_sum(const int* in, int* out, int n) {
    const int blocks = (n + 255) / 256;
    int* partial = nullptr;
    cudaMalloc(&partial, blocks * sizeof(int));
    block_sum<256><<<blocks, 256>>>(in, partial, n);
    int remaining = blocks;
    int* src = partial;
    int* dst = nullptr;
    cudaMalloc(&dst, ((blocks + 255) / 256) * sizeof(int));
    while (remaining > 1) {
        int next = (remaining + 255) / 256;
        block_sum<256><<<next, 256>>>(src, dst, remaining);
        int* t = src; src = dst; dst = t;
        remaining = next;
    }
    cudaMemcpy(out, src, sizeof(int), cudaMemcpyDeviceToDevice);
    cudaFree(partial);
    cudaFree(dst);
}

// ---- warp shuffle reduction ------------------------------------------------------------------
__device__ int warp_reduce(int v) {
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
    return v;
}

__global__ void warp_sum(const int* in, int* out, int n) {
    __shared__ int warp_totals[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = warp_reduce(i < n ? in[i] : 0);
    int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
    if (lane == 0) warp_totals[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < blockDim.x / warpSize ? warp_totals[lane] : 0;
        v = warp_reduce(v);
        if (lane == 0) atomicAdd(out, v);
    }
}

extern "C" void solve_warp_sum(const int* in, int* out, int n) {
    cudaMemset(out, 0, sizeof(int));
    warp_sum<<<(n + 511) / 512, 512>>>(in, out, n);
}

// ---- three-pass exclusive scan over tiles of 1024 --------------------------------------------
constexpr int TILE = 1024;

// Hillis-Steele inclusive scan of the block's tile; returns the thread's inclusive prefix.
__device__ int scan_block(int* s, int value) {
    int t = threadIdx.x;
    s[t] = value;
    __syncthreads();
    for (int offset = 1; offset < blockDim.x; offset *= 2) {
        int add = t >= offset ? s[t - offset] : 0;
        __syncthreads();
        s[t] += add;
        __syncthreads();
    }
    return s[t];
}

__global__ void scan_tiles(const int* in, int* out, int* tile_sums, int n) {
    __shared__ int s[TILE];
    int i = blockIdx.x * TILE + threadIdx.x;
    int value = i < n ? in[i] : 0;
    int inclusive = scan_block(s, value);
    if (i < n) out[i] = inclusive - value;
    if (threadIdx.x == TILE - 1) tile_sums[blockIdx.x] = inclusive;
}

__global__ void scan_sums(int* sums, int count) {
    __shared__ int s[TILE];
    __shared__ int carry;
    if (threadIdx.x == 0) carry = 0;
    __syncthreads();
    for (int base = 0; base < count; base += TILE) {
        int i = base + threadIdx.x;
        int value = i < count ? sums[i] : 0;
        int inclusive = scan_block(s, value);
        if (i < count) sums[i] = carry + inclusive - value;
        __syncthreads();
        if (threadIdx.x == TILE - 1) carry += inclusive;
        __syncthreads();
    }
}

__global__ void add_offsets(int* out, const int* offsets, int n) {
    int i = blockIdx.x * TILE + threadIdx.x;
    if (i < n) out[i] += offsets[blockIdx.x];
}

extern "C" void solve_scan(const int* in, int* out, int n) {
    int tiles = (n + TILE - 1) / TILE;
    int* sums = nullptr;
    cudaMalloc(&sums, tiles * sizeof(int));
    scan_tiles<<<tiles, TILE>>>(in, out, sums, n);
    scan_sums<<<1, TILE>>>(sums, tiles);
    add_offsets<<<tiles, TILE>>>(out, sums, n);
    cudaFree(sums);
}

// ---- histogram with privatized shared bins ----------------------------------------------------
__global__ void histogram(const int* values, int n, unsigned int* bins, int nbins) {
    extern __shared__ unsigned int local[];
    for (int b = threadIdx.x; b < nbins; b += blockDim.x) local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[values[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < nbins; b += blockDim.x)
        if (local[b]) atomicAdd(&bins[b], local[b]);
}

extern "C" void solve_histogram(const int* values, int n, unsigned int* bins, int nbins) {
    cudaMemset(bins, 0, nbins * sizeof(unsigned int));
    histogram<<<16, 256, nbins * sizeof(unsigned int)>>>(values, n, bins, nbins);
}

// ---- cooperative groups: tiles of 32 and 16 --------------------------------------------------
__global__ void cg_sum(const int* in, int* out, int n) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    int i = block.group_index().x * block.size() + block.thread_rank();
    int v = i < n ? in[i] : 0;
    int warp_total = cg::reduce(warp, v, cg::plus<int>());

    cg::thread_block_tile<16> half = cg::tiled_partition<16>(warp);
    int half_total = v;
    for (int offset = half.size() / 2; offset > 0; offset /= 2) half_total += half.shfl_down(half_total, offset);
    half_total = half.shfl(half_total, 0);
    int other_half = warp.shfl_xor(half_total, 16);
    int largest = cg::reduce(warp, v, cg::greater<int>());
    int smallest = cg::reduce(warp, v, cg::less<int>());
    block.sync();
    if (warp.thread_rank() == 0) {
        int w = block.group_index().x * (block.size() / 32) + warp.meta_group_rank();
        out[4 * w + 0] = warp_total;
        out[4 * w + 1] = half_total + other_half;
        out[4 * w + 2] = largest;
        out[4 * w + 3] = smallest;
    }
}

extern "C" void solve_cg_sum(const int* in, int* out, int n) {
    cg_sum<<<(n + 127) / 128, 128>>>(in, out, n);
}

// ---- extern __shared__: aligned, templated, at namespace scope, and two names ------------------
extern __shared__ float file_scope_shared[];

template <typename T>
__global__ void reverse_tile(const T* in, T* out, int n) {
    extern __shared__ __align__(16) unsigned char raw[];
    T* tile = reinterpret_cast<T*>(raw);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) tile[threadIdx.x] = in[i];
    __syncthreads();
    int j = blockIdx.x * blockDim.x + (blockDim.x - 1 - threadIdx.x);
    if (j < n) out[i] = tile[blockDim.x - 1 - threadIdx.x];
}

__global__ void scale_with_file_scope(const float* in, float* out, int n, float factor) {
    extern __shared__ float a[], b[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    file_scope_shared[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    if (i < n) out[i] = (a[threadIdx.x] + b[threadIdx.x]) * 0.5f * factor;
}

extern "C" void solve_reverse(const double* in, double* out, int n) {
    reverse_tile<double><<<n / 64, 64, 64 * sizeof(double)>>>(in, out, n);
}

extern "C" void solve_scale(const float* in, float* out, int n, float factor) {
    scale_with_file_scope<<<(n + 127) / 128, 128, 128 * sizeof(float)>>>(in, out, n, factor);
}

// ---- a kernel template whose arguments deduce its parameters -----------------------------------
template <typename T>
__global__ void fill(T* p, T value, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    p[i] = value;
}

extern "C" void solve_fill(float* p, int n, float value) {
    fill<<<(n + 127) / 128, 128>>>(p, value, n);
}

// ---- printf, written out in thread order ------------------------------------------------------
__global__ void hello(int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) printf("thread %d of block %d\n", threadIdx.x, blockIdx.x);
}

extern "C" void solve_printf(int n) {
    hello<<<(n + 3) / 4, 4>>>(n);
}

// ---- atomics ---------------------------------------------------------------------------------
__global__ void atomics(unsigned int* u, int* s, float* f, unsigned long long* big) {
    atomicInc(&u[0], 9);        // wraps to 0 after 9
    atomicDec(&u[1], 9);        // from 0 wraps to 9
    atomicAdd(&u[2], 2u);
    atomicMax(&s[0], (int)threadIdx.x);
    atomicMin(&s[1], -(int)threadIdx.x);
    atomicOr(&u[3], 1u << (threadIdx.x % 32));
    atomicXor(&u[4], 1u);
    atomicAnd(&u[5], ~(1u << (threadIdx.x % 8)));
    atomicSub(&s[2], 3);
    atomicAdd(&f[0], 0.5f);
    atomicAdd(big, 1ULL << 33);
    unsigned int expected = 0;
    while (atomicCAS(&u[6], expected, expected + 1) != expected) expected = u[6];
    atomicExch(&s[3], 77);
}

extern "C" void solve_atomics(unsigned int* u, int* s, float* f, unsigned long long* big, int threads) {
    atomics<<<1, threads>>>(u, s, f, big);
}

// ---- 2-D blocks and grids: transpose through a shared tile ---------------------------------------
namespace {

__global__ void transpose(const float* in, float* out, int rows, int cols) {
    __shared__ float tile[16][17];
    int x = blockIdx.x * 16 + threadIdx.x;
    int y = blockIdx.y * 16 + threadIdx.y;
    if (x < cols && y < rows) tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
    __syncthreads();
    x = blockIdx.y * 16 + threadIdx.x;
    y = blockIdx.x * 16 + threadIdx.y;
    if (x < rows && y < cols) out[y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

}  // namespace

extern "C" void solve_transpose(const float* in, float* out, int rows, int cols) {
    dim3 block(16, 16);
    dim3 grid((cols + 15) / 16, (rows + 15) / 16);
    transpose<<<grid, block>>>(in, out, rows, cols);
}

// ---- votes and barrier reductions -----------------------------------------------------------------
__global__ void votes(const int* in, int* out) {
    int v = in[threadIdx.x];
    unsigned int ballot = __ballot_sync(0xffffffff, v > 0);
    int any = __any_sync(0xffffffff, v > 100);
    int all = __all_sync(0xffffffff, v > -100);
    int positives = __syncthreads_count(v > 0);
    int some = __syncthreads_or(v == 7);
    int every = __syncthreads_and(v != 0);
    unsigned int same = __match_any_sync(0xffffffff, v & 3);
    if (threadIdx.x % 32 == 0) {
        int w = threadIdx.x / 32;
        out[6 * w + 0] = __popc(ballot);
        out[6 * w + 1] = any;
        out[6 * w + 2] = all;
        out[6 * w + 3] = positives;
        out[6 * w + 4] = some * 2 + every;
        out[6 * w + 5] = __popc(same);
    }
}

extern "C" void solve_votes(const int* in, int* out) {
    votes<<<1, 64>>>(in, out);
}

// ---- warp-aggregated atomics through __activemask / coalesced groups ------------------------------
__global__ void compact_positive(const int* in, int* out, int* count, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && in[i] > 0) {
        cg::coalesced_group active = cg::coalesced_threads();
        int base = 0;
        if (active.thread_rank() == 0) base = atomicAdd(count, (int)active.size());
        base = active.shfl(base, 0);
        out[base + active.thread_rank()] = in[i];
    }
}

extern "C" void solve_compact(const int* in, int* out, int* count, int n) {
    cudaMemset(count, 0, sizeof(int));
    compact_positive<<<(n + 127) / 128, 128>>>(in, out, count, n);
}

// ---- shared structs and unions, and shared memory declared in a function template --------------------
struct Pair {
    int key;
    float value;
};

union Scratch {
    int as_int[64];
    float as_float[64];
};

template <int N>
__device__ int block_max(int v) {
    __shared__ int values[N];
    values[threadIdx.x] = v;
    __syncthreads();
    int best = values[0];
    for (int k = 1; k < N; ++k) best = max(best, values[k]);
    __syncthreads();
    return best;
}

__global__ void shared_kinds(const int* in, int* out) {
    __shared__ Pair pair;
    __shared__ Scratch scratch;
    if (threadIdx.x == 0) {
        pair.key = blockIdx.x;
        pair.value = 1.5f;
    }
    scratch.as_int[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];
    __syncthreads();
    int best = block_max<64>(scratch.as_int[63 - threadIdx.x]);
    if (threadIdx.x == 0) {
        out[3 * blockIdx.x + 0] = pair.key;
        out[3 * blockIdx.x + 1] = (int)(pair.value * 2);
        out[3 * blockIdx.x + 2] = best;
    }
}

extern "C" void solve_shared_kinds(const int* in, int* out, int blocks) {
    shared_kinds<<<blocks, 64>>>(in, out);
}

// ---- every lane's result of the matches and reductions, over all lanes and over the even ones --------
__global__ void warp_collectives(const int* in, unsigned int* out) {
    const int v = in[threadIdx.x];
    unsigned int* o = out + threadIdx.x * 10;
    o[0] = __match_any_sync(0xffffffff, v & 7);
    int predicate = 0;
    o[1] = __match_all_sync(0xffffffff, v & 1, &predicate);
    o[2] = predicate;
    o[3] = __reduce_min_sync(0xffffffff, v);
    o[4] = __reduce_max_sync(0xffffffff, v);
    o[5] = __reduce_min_sync(0xffffffff, (unsigned int)v);
    o[6] = __reduce_or_sync(0xffffffff, (unsigned int)v) ^ __reduce_xor_sync(0xffffffff, (unsigned int)v);
    if (threadIdx.x % 2 == 0) {
        o[7] = __match_any_sync(0x55555555, v % 3);
        o[8] = __reduce_add_sync(0x55555555, v);
        o[9] = __ballot_sync(0x55555555, v > 0);
    }
}

extern "C" void solve_warp_collectives(const int* in, unsigned int* out) {
    warp_collectives<<<1, 64>>>(in, out);
}

// ---- shuffles with segment widths, a warp scan, a warp reduction ------------------------------------
__global__ void shuffles(const int* in, int* out) {
    int lane = threadIdx.x % 32;
    int v = in[threadIdx.x];
    int* o = out + threadIdx.x * 6;
    o[0] = __shfl_sync(0xffffffff, v, 3, 8);
    o[1] = __shfl_up_sync(0xffffffff, v, 2, 16);
    o[2] = __shfl_down_sync(0xffffffff, v, 5);
    o[3] = __shfl_xor_sync(0xffffffff, v, 4, 8);
    o[4] = __reduce_add_sync(0xffffffff, v);
    int scan = v;
    for (int d = 1; d < 32; d *= 2) {
        int t = __shfl_up_sync(0xffffffff, scan, d);
        if (lane >= d) scan += t;
    }
    o[5] = scan;
}

extern "C" void solve_shuffles(const int* in, int* out) {
    shuffles<<<1, 64>>>(in, out);
}

// ---- half precision ----------------------------------------------------------------------------------
__global__ void half_axpy(const __half* x, __half* y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = __float2half(a * __half2float(x[i]) + __half2float(y[i]));
}

extern "C" void solve_half_axpy(const __half* x, __half* y, float a, int n) {
    half_axpy<<<(n + 255) / 256, 256>>>(x, y, a, n);
}

// ---- a spin lock between the threads of a block, held across a scheduling point ----------------------------
__global__ void locked_increments(int* counter, int* inside_seen) {
    __shared__ int lock;
    __shared__ int inside;
    if (threadIdx.x == 0) {
        lock = 0;
        inside = 0;
    }
    __syncthreads();
    while (atomicCAS(&lock, 0, 1) != 0) {
    }
    int seen = ++inside;
    __nanosleep(100);
    inside_seen[blockIdx.x * blockDim.x + threadIdx.x] = seen;
    --inside;
    atomicAdd(counter, 1);
    __threadfence_block();
    atomicExch(&lock, 0);
}

extern "C" void solve_spin_lock(int* counter, int* inside_seen, int blocks, int threads) {
    locked_increments<<<blocks, threads>>>(counter, inside_seen);
}

// ---- the emulated device, as solve() sees it ----------------------------------------------------
extern "C" void solve_device_info(int* out) {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    out[0] = prop.multiProcessorCount;
    out[1] = (int)prop.sharedMemPerBlock;
    out[2] = (int)prop.sharedMemPerBlockOptin;
    out[3] = prop.maxThreadsPerBlock;
    out[4] = prop.warpSize;
    int value = 0;
    cudaDeviceGetAttribute(&value, cudaDevAttrMultiProcessorCount, 0);
    out[5] = value;
    int min_grid = 0, block = 0;
    cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, relu, 0, 0);
    out[6] = block;
    out[7] = min_grid;
    int per_sm = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, relu, 256, 0);
    out[8] = per_sm;
    out[9] = (int)cudaGetLastError();
}
