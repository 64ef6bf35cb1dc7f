// Single-pass inclusive scan with decoupled look-back.
// Each block takes the next 2048-element tile (tile numbers come from an atomic counter, so a
// block only ever waits for tiles owned by blocks that started before it), scans it in
// registers and shared memory, and publishes a 64-bit status word for the tile:
//     high 32 bits: 0 = nothing yet, 1 = tile total only ("aggregate"), 2 = running total
//                   up to and including this tile ("prefix");
//     low 32 bits:  the float's bits.
// To find its offset, warp 0 reads the status of the 32 tiles before it at once, adds the
// aggregates down to the nearest published prefix, and repeats further back if none of the 32
// had one. Input read once, output written once: 8 N bytes.
#include <cuda_runtime.h>
#include <cstdint>

constexpr int kThreads = 256;
constexpr int kItems = 8;                     // consecutive elements per thread
constexpr int kTile = kThreads * kItems;      // 2048
constexpr int kWarps = kThreads / 32;
constexpr unsigned kFull = 0xffffffffu;
constexpr unsigned kAggregate = 1u, kPrefix = 2u;

__device__ __forceinline__ unsigned long long pack(unsigned flag, float v) {
    return ((unsigned long long)flag << 32) | __float_as_uint(v);
}

__device__ __forceinline__ float warp_inclusive(float v, int lane) {
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        const float up = __shfl_up_sync(kFull, v, d);
        if (lane >= d) v += up;
    }
    return v;
}

__global__ void __launch_bounds__(kThreads)
scan_single_pass(const float* __restrict__ in, float* __restrict__ out, int n,
                 unsigned long long* status, unsigned* next_tile) {
    __shared__ float warp_base[kWarps];
    __shared__ int tile_sh;
    __shared__ float offset_sh;
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5;

    if (t == 0) tile_sh = (int)atomicAdd(next_tile, 1u);
    __syncthreads();
    const int tile = tile_sh;
    const long long first = (long long)tile * kTile + (long long)t * kItems;

    // 1. Load 8 consecutive elements (two float4 loads when the whole run is in range and
    //    aligned) and scan them serially.
    float v[kItems];
    const bool vec = first + kItems <= n && (reinterpret_cast<uintptr_t>(in + first) & 15) == 0;
    if (vec) {
        const float4 a = *reinterpret_cast<const float4*>(in + first);
        const float4 b = *reinterpret_cast<const float4*>(in + first + 4);
        v[0] = a.x; v[1] = a.y; v[2] = a.z; v[3] = a.w;
        v[4] = b.x; v[5] = b.y; v[6] = b.z; v[7] = b.w;
    } else {
#pragma unroll
        for (int j = 0; j < kItems; ++j) v[j] = first + j < n ? in[first + j] : 0.0f;
    }
#pragma unroll
    for (int j = 1; j < kItems; ++j) v[j] += v[j - 1];

    // 2. Block scan of the per-thread totals.
    const float thread_total = v[kItems - 1];
    const float incl = warp_inclusive(thread_total, lane);
    if (lane == 31) warp_base[warp] = incl;
    __syncthreads();

    // 3. Warp 0: scan the warp totals, publish the tile, look back, publish the prefix.
    if (warp == 0) {
        const float w = lane < kWarps ? warp_base[lane] : 0.0f;
        const float ws = warp_inclusive(w, lane);
        if (lane < kWarps) warp_base[lane] = ws - w;
        const float aggregate = __shfl_sync(kFull, ws, kWarps - 1);

        float offset = 0.0f;
        if (tile == 0) {
            if (lane == 0) atomicExch(&status[0], pack(kPrefix, aggregate));
        } else {
            if (lane == 0) atomicExch(&status[tile], pack(kAggregate, aggregate));
            int newest = tile - 1;
            while (true) {
                const int j = newest - lane;          // lane 0 = nearest earlier tile
                unsigned long long s = pack(kPrefix, 0.0f);   // "before tile 0": prefix 0
                if (j >= 0) {
                    do {
                        s = atomicAdd(&status[j], 0ull);       // coherent read
                    } while ((s >> 32) == 0);
                }
                const unsigned has_prefix = __ballot_sync(kFull, (s >> 32) == kPrefix);
                const int stop = has_prefix ? __ffs(has_prefix) - 1 : 31;   // nearest prefix
                float part = lane <= stop ? __uint_as_float((unsigned)s) : 0.0f;
#pragma unroll
                for (int off = 16; off > 0; off >>= 1) part += __shfl_xor_sync(kFull, part, off);
                offset += part;
                if (has_prefix) break;
                newest -= 32;
            }
            if (lane == 0) atomicExch(&status[tile], pack(kPrefix, offset + aggregate));
        }
        if (lane == 0) offset_sh = offset;
    }
    __syncthreads();

    // 4. Add the offsets and store.
    const float add = offset_sh + warp_base[warp] + (incl - thread_total);
#pragma unroll
    for (int j = 0; j < kItems; ++j) v[j] += add;
    if (vec && (reinterpret_cast<uintptr_t>(out + first) & 15) == 0) {
        *reinterpret_cast<float4*>(out + first) = make_float4(v[0], v[1], v[2], v[3]);
        *reinterpret_cast<float4*>(out + first + 4) = make_float4(v[4], v[5], v[6], v[7]);
    } else {
#pragma unroll
        for (int j = 0; j < kItems; ++j)
            if (first + j < n) out[first + j] = v[j];
    }
}

extern "C" void solve(const float* input, float* output, int N) {
    if (N <= 0) return;
    const int tiles = (int)(((long long)N + kTile - 1) / kTile);
    // Scratch: one status word per tile, then the tile counter; everything starts at zero.
    const size_t bytes = sizeof(unsigned long long) * ((size_t)tiles + 1);
    void* scratch = nullptr;
    if (cudaMalloc(&scratch, bytes) != cudaSuccess) return;
    cudaMemsetAsync(scratch, 0, bytes);
    unsigned long long* status = static_cast<unsigned long long*>(scratch);
    unsigned* next_tile = reinterpret_cast<unsigned*>(status + tiles);
    scan_single_pass<<<tiles, kThreads>>>(input, output, N, status, next_tile);
    cudaFree(scratch);
}
