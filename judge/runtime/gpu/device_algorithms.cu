// The kernels the GPU backend runs CUB's and Thrust's device-wide algorithms with
// (judge/backends/gpu_algorithms.py). The run child compiles this file once with NVRTC, before the
// submission loads, and keeps the result in the account's kernel cache: no call of an algorithm
// compiles anything inside solve()'s time limit. Sorting is CuPy's (Thrust's stable sort, built into
// CuPy); everything else is here, one extern "C" kernel per (algorithm, item type), blocks of
// cj_threads threads.

#define CJ_TYPES(X) X(i8, signed char) X(u8, unsigned char) X(i16, short) X(u16, unsigned short) \
    X(i32, int) X(u32, unsigned int) X(i64, long long) X(u64, unsigned long long) X(f32, float) X(f64, double)
#define CJ_OPS(X, t, T) X(t, T, sum, Sum) X(t, T, min, Min) X(t, T, max, Max)
#define CJ_EACH(i, n) for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < (n); \
                           i += (long long)gridDim.x * blockDim.x)

enum { cj_threads = 256, cj_warps = cj_threads / 32, cj_items_per_thread = 8,
       cj_tile_items = cj_threads * cj_items_per_thread };
constexpr unsigned cj_full_warp = 0xffffffffu;

template <class T> constexpr bool cj_floating = false;
template <> constexpr bool cj_floating<float> = true;
template <> constexpr bool cj_floating<double> = true;

struct Sum { template <class T> __device__ T operator()(T a, T b) const { return (T)(a + b); } };
struct Min { template <class T> __device__ T operator()(T a, T b) const { return b < a ? b : a; } };
struct Max { template <class T> __device__ T operator()(T a, T b) const { return a < b ? b : a; } };

// __shfl_*_sync take 32- and 64-bit values; narrower ones travel as int.
template <class T> __device__ T shfl_down(T v, int delta) {
    if constexpr (sizeof(T) < 4) return (T)__shfl_down_sync(cj_full_warp, (int)v, delta);
    else return __shfl_down_sync(cj_full_warp, v, delta);
}
template <class T> __device__ T shfl_up(T v, int delta) {
    if constexpr (sizeof(T) < 4) return (T)__shfl_up_sync(cj_full_warp, (int)v, delta);
    else return __shfl_up_sync(cj_full_warp, v, delta);
}

// Every thread's `v` combined; the result is valid in thread 0.
template <class T, class Op> __device__ T block_reduce(T v, Op op) {
    __shared__ alignas(8) unsigned char raw[cj_warps * sizeof(T)];
    T* warp_totals = reinterpret_cast<T*>(raw);
    for (int delta = 16; delta > 0; delta >>= 1) v = op(v, shfl_down(v, delta));
    if (threadIdx.x % 32 == 0) warp_totals[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        v = warp_totals[threadIdx.x % cj_warps];
        for (int delta = cj_warps / 2; delta > 0; delta >>= 1) v = op(v, shfl_down(v, delta));
    }
    return v;
}

// Combined over the threads before this one, `identity` in thread 0; every thread gets its own.
template <class T, class Op> __device__ T block_exclusive_scan(T v, Op op, T identity) {
    __shared__ alignas(8) unsigned char raw[cj_warps * sizeof(T)];
    T* warp_totals = reinterpret_cast<T*>(raw);
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    T inclusive = v;
    for (int delta = 1; delta < 32; delta <<= 1) {
        T before = shfl_up(inclusive, delta);
        if (lane >= delta) inclusive = op(before, inclusive);
    }
    T exclusive = shfl_up(inclusive, 1);
    if (lane == 0) exclusive = identity;
    if (lane == 31) warp_totals[warp] = inclusive;
    __syncthreads();
    T before_warp = identity;
    for (int w = 0; w < warp; ++w) before_warp = op(before_warp, warp_totals[w]);
    return op(before_warp, exclusive);
}

// --- reductions: one partial per block, finished by the host -------------------------------------

template <class T, class Op> __device__ void reduce_partials(const T* in, long long n, T identity, T* partials) {
    Op op;
    T v = identity;
    CJ_EACH(i, n) v = op(v, in[i]);
    v = block_reduce(v, op);
    if (threadIdx.x == 0) partials[blockIdx.x] = v;
}

// Whether (other, other_where) replaces (best, where) as the first least (greatest) item; index -1: none.
template <class T, bool Greatest> __device__ bool preferred(T best, long long where, T other, long long other_where) {
    if (other_where < 0) return false;
    if (where < 0) return true;
    const bool before = Greatest ? best < other : other < best;
    const bool tied = !(best < other) && !(other < best);
    return before || (tied && other_where < where);
}

// The first index of the least (or greatest) item of each block's share; index -1 when it has none.
template <class T, bool Greatest> __device__ void arg_partials(const T* in, long long n, T* values,
                                                               long long* indices) {
    T best = T();
    long long where = -1;
    CJ_EACH(i, n) if (preferred<T, Greatest>(best, where, in[i], i)) best = in[i], where = i;
    for (int delta = 16; delta > 0; delta >>= 1) {
        const T other = shfl_down(best, delta);
        const long long other_where = shfl_down(where, delta);
        if (preferred<T, Greatest>(best, where, other, other_where)) best = other, where = other_where;
    }
    __shared__ alignas(8) unsigned char raw[cj_warps * sizeof(T)];
    __shared__ long long warp_where[cj_warps];
    T* warp_best = reinterpret_cast<T*>(raw);
    if (threadIdx.x % 32 == 0) warp_best[threadIdx.x / 32] = best, warp_where[threadIdx.x / 32] = where;
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int w = 1; w < cj_warps; ++w)
            if (preferred<T, Greatest>(best, where, warp_best[w], warp_where[w])) best = warp_best[w], where = warp_where[w];
        values[blockIdx.x] = best;
        indices[blockIdx.x] = where;
    }
}

// --- scans: a total per tile, the tiles' prefixes (by the same scan), then each tile -------------

template <class T, class Op> __device__ void tile_totals(const T* in, long long n, T identity, T* totals) {
    Op op;
    const long long first = blockIdx.x * (long long)cj_tile_items + threadIdx.x * (long long)cj_items_per_thread;
    T v = identity;
    for (int k = 0; k < cj_items_per_thread; ++k)
        if (first + k < n) v = op(v, in[first + k]);
    v = block_reduce(v, op);
    if (threadIdx.x == 0) totals[blockIdx.x] = v;
}

// out[i] = init (+) in[0..i) when exclusive, else in[0..i]; `prefixes[tile]` combines the tiles before.
template <class T, class Op> __device__ void scan_tiles(const T* in, T* out, long long n, const T* prefixes,
                                                        T init, int exclusive, T identity) {
    Op op;
    const long long first = blockIdx.x * (long long)cj_tile_items + threadIdx.x * (long long)cj_items_per_thread;
    T items[cj_items_per_thread];
    T total = identity;
    for (int k = 0; k < cj_items_per_thread; ++k) {
        items[k] = first + k < n ? in[first + k] : identity;
        total = op(total, items[k]);
    }
    T carry = block_exclusive_scan(total, op, identity);
    if (prefixes) carry = op(prefixes[blockIdx.x], carry);
    for (int k = 0; k < cj_items_per_thread && first + k < n; ++k) {
        const T before = carry;
        carry = op(carry, items[k]);
        out[first + k] = exclusive ? op(init, before) : carry;
    }
}

// --- sorting: the unsigned key CUB's radix sort orders by; the sort itself is CuPy's ------------

template <class T> __device__ unsigned long long order_bits(T x) {
    constexpr unsigned long long width_mask = ~0ull >> (64 - 8 * sizeof(T));
    constexpr unsigned long long sign = 1ull << (8 * sizeof(T) - 1);
    unsigned long long bits;
    if constexpr (sizeof(T) == 4 && cj_floating<T>) bits = __float_as_uint(x + 0.0f);   // -0.0 orders as +0.0
    else if constexpr (cj_floating<T>) bits = (unsigned long long)__double_as_longlong(x + 0.0);
    else bits = (unsigned long long)x & width_mask;
    if constexpr (cj_floating<T>) return (bits & sign) ? ~bits & width_mask : bits | sign;
    else if constexpr ((T)-1 < 0) return bits ^ sign;
    else return bits;
}

// Keys of at most 32 bits are written as 32-bit keys: half the radix passes, each moving half the bytes.
template <class T, class K> __device__ void sort_keys(const T* in, long long n, int begin_bit, int end_bit,
                                                      int descending, K* keys) {
    const int width = end_bit - begin_bit;
    const unsigned long long mask = width >= 64 ? ~0ull : (1ull << width) - 1;
    CJ_EACH(i, n) {
        const unsigned long long key = (order_bits(in[i]) >> begin_bit) & mask;
        keys[i] = (K)(descending ? ~key : key);
    }
}

// --- selection: a flag per item, their exclusive sum, then a scatter ---------------------------

template <class T> __device__ void flags_nonzero(const T* in, long long n, long long* flags) {
    CJ_EACH(i, n) flags[i] = in[i] != T(0);
}

template <class T> __device__ void flags_run_heads(const T* in, long long n, long long* flags) {
    CJ_EACH(i, n) flags[i] = i == 0 || in[i] != in[i - 1];
}

// --- histogram, segments, fill and count ---------------------------------------------------------

// Bins of [lower, upper) as CUB's HistogramEven: for integers (x - lower) * bins / (upper - lower).
template <class T> __device__ void histogram_even(const T* in, long long n, long long bins, double lower,
                                                  double upper, unsigned long long* counts) {
    CJ_EACH(i, n) {
        const double x = (double)in[i];
        if (!(x >= lower && x < upper)) continue;
        long long bin;
        if constexpr (cj_floating<T>) bin = (long long)((x - lower) * (bins / (upper - lower)));
        else bin = (((long long)in[i] - (long long)lower) * bins) / ((long long)upper - (long long)lower);
        atomicAdd(&counts[bin < 0 ? 0 : bin >= bins ? bins - 1 : bin], 1ull);
    }
}

// out[s] = init (+) in[begins[s]..ends[s]), one block per segment.
template <class T, class Op> __device__ void segmented_reduce(const T* in, const long long* begins,
                                                              const long long* ends, T init, T identity, T* out) {
    Op op;
    const long long begin = begins[blockIdx.x], end = ends[blockIdx.x];
    T v = identity;
    for (long long i = begin + threadIdx.x; i < end; i += blockDim.x) v = op(v, in[i]);
    v = block_reduce(v, op);
    if (threadIdx.x == 0) out[blockIdx.x] = end > begin ? op(init, v) : init;
}

template <class T> __device__ void sequence(T* out, long long n, T init, T step, int fill) {
    CJ_EACH(i, n) out[i] = fill ? init : (T)(init + (T)i * step);
}

template <class T> __device__ void count_equal(const T* in, long long n, T value, unsigned long long* counter) {
    unsigned long long v = 0;
    CJ_EACH(i, n) v += in[i] == value;
    v = block_reduce(v, Sum());
    if (threadIdx.x == 0) atomicAdd(counter, v);
}

// --- the kernels ---------------------------------------------------------------------------------

#define CJ_OP_KERNELS(t, T, o, Op)                                                                              \
    extern "C" __global__ void cj_reduce_##o##_##t(const T* in, long long n, T identity, T* partials) {         \
        reduce_partials<T, Op>(in, n, identity, partials);                                                      \
    }                                                                                                           \
    extern "C" __global__ void cj_tile_totals_##o##_##t(const T* in, long long n, T identity, T* totals) {      \
        tile_totals<T, Op>(in, n, identity, totals);                                                            \
    }                                                                                                           \
    extern "C" __global__ void cj_scan_##o##_##t(const T* in, T* out, long long n, const T* prefixes, T init,   \
                                                 int exclusive, T identity) {                                   \
        scan_tiles<T, Op>(in, out, n, prefixes, init, exclusive, identity);                                     \
    }                                                                                                           \
    extern "C" __global__ void cj_segmented_##o##_##t(const T* in, const long long* begins,                     \
                                                      const long long* ends, T init, T identity, T* out) {      \
        segmented_reduce<T, Op>(in, begins, ends, init, identity, out);                                         \
    }

#define CJ_TYPE_KERNELS(t, T)                                                                                   \
    CJ_OPS(CJ_OP_KERNELS, t, T)                                                                                 \
    extern "C" __global__ void cj_argmin_##t(const T* in, long long n, T* values, long long* indices) {         \
        arg_partials<T, false>(in, n, values, indices);                                                         \
    }                                                                                                           \
    extern "C" __global__ void cj_argmax_##t(const T* in, long long n, T* values, long long* indices) {         \
        arg_partials<T, true>(in, n, values, indices);                                                          \
    }                                                                                                           \
    extern "C" __global__ void cj_sort_keys_##t(const T* in, long long n, int begin_bit, int end_bit,           \
                                                int descending, unsigned long long* keys) {                     \
        sort_keys(in, n, begin_bit, end_bit, descending, keys);                                                 \
    }                                                                                                           \
    extern "C" __global__ void cj_sort_keys32_##t(const T* in, long long n, int begin_bit, int end_bit,         \
                                                  int descending, unsigned int* keys) {                         \
        sort_keys(in, n, begin_bit, end_bit, descending, keys);                                                 \
    }                                                                                                           \
    extern "C" __global__ void cj_flags_nonzero_##t(const T* in, long long n, long long* flags) {               \
        flags_nonzero(in, n, flags);                                                                            \
    }                                                                                                           \
    extern "C" __global__ void cj_flags_run_heads_##t(const T* in, long long n, long long* flags) {             \
        flags_run_heads(in, n, flags);                                                                          \
    }                                                                                                           \
    extern "C" __global__ void cj_histogram_##t(const T* in, long long n, long long bins, double lower,         \
                                                double upper, unsigned long long* counts) {                     \
        histogram_even(in, n, bins, lower, upper, counts);                                                      \
    }                                                                                                           \
    extern "C" __global__ void cj_sequence_##t(T* out, long long n, T init, T step, int fill) {                 \
        sequence(out, n, init, step, fill);                                                                     \
    }                                                                                                           \
    extern "C" __global__ void cj_count_##t(const T* in, long long n, T value, unsigned long long* counter) {   \
        count_equal(in, n, value, counter);                                                                     \
    }

CJ_TYPES(CJ_TYPE_KERNELS)

// --- type-free kernels ---------------------------------------------------------------------------

// dst[i] = src[order[i]], items of `width` bytes.
extern "C" __global__ void cj_gather(const unsigned char* src, const long long* order, long long n, int width,
                                     unsigned char* dst) {
    CJ_EACH(i, n) {
        const unsigned char* from = src + order[i] * width;
        for (int b = 0; b < width; ++b) dst[i * width + b] = from[b];
    }
}

// For each flagged item: its bytes to dst[positions[i]] (dst may be null), its index to starts[positions[i]]
// (starts may be null).
extern "C" __global__ void cj_scatter_flagged(const unsigned char* src, int width, const long long* flags,
                                              const long long* positions, long long n, unsigned char* dst,
                                              long long* starts) {
    CJ_EACH(i, n) {
        if (!flags[i]) continue;
        const long long at = positions[i];
        if (dst) for (int b = 0; b < width; ++b) dst[at * width + b] = src[i * width + b];
        if (starts) starts[at] = i;
    }
}

extern "C" __global__ void cj_run_lengths(const long long* starts, long long runs, long long n, long long* lengths) {
    CJ_EACH(k, runs) lengths[k] = (k + 1 < runs ? starts[k + 1] : n) - starts[k];
}

// out[i] = (To) in[i] for the item types' codes (cudajudge_item_type: 1 = i8 ... 10 = f64).
template <class From> __device__ void convert_item(const From* in, long long i, void* out, int to) {
    switch (to) {
#define CJ_STORE(code, T) case code: static_cast<T*>(out)[i] = (T)in[i]; break;
        CJ_STORE(1, signed char) CJ_STORE(2, unsigned char) CJ_STORE(3, short) CJ_STORE(4, unsigned short)
        CJ_STORE(5, int) CJ_STORE(6, unsigned int) CJ_STORE(7, long long) CJ_STORE(8, unsigned long long)
        CJ_STORE(9, float) CJ_STORE(10, double)
#undef CJ_STORE
    }
}

extern "C" __global__ void cj_convert(const void* in, int from, void* out, int to, long long n) {
    CJ_EACH(i, n) {
        switch (from) {
#define CJ_LOAD(code, T) case code: convert_item(static_cast<const T*>(in), i, out, to); break;
            CJ_LOAD(1, signed char) CJ_LOAD(2, unsigned char) CJ_LOAD(3, short) CJ_LOAD(4, unsigned short)
            CJ_LOAD(5, int) CJ_LOAD(6, unsigned int) CJ_LOAD(7, long long) CJ_LOAD(8, unsigned long long)
            CJ_LOAD(9, float) CJ_LOAD(10, double)
#undef CJ_LOAD
        }
    }
}
