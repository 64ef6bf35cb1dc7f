// The judge's own kernels around CuPy's CUB and Thrust calls for device-wide algorithms (see
// judge/backends/gpu_algorithms.py): the elementwise steps of each algorithm, templated on the item type and
// compiled once per process, so that no call compiles anything while solve() runs.
typedef unsigned long long u64;
typedef long long i64;
#define EACH(i, n) for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += (i64)gridDim.x * blockDim.x)

enum { OP_SUM = 1, OP_MIN = 2, OP_MAX = 3 };

template <class T>
__device__ T combine(int op, T a, T b) {
    if (op == OP_MIN) return b < a ? b : a;
    if (op == OP_MAX) return a < b ? b : a;
    return (T)(a + b);
}

// The unsigned bits CUB's radix sort orders keys by: floats twiddled, -0.0 as +0.0.
__device__ u64 order_bits(float k) {
    if (k == 0.0f) k = 0.0f;
    unsigned b = __float_as_uint(k);
    return (b & 0x80000000u) ? (u64)(~b) : (u64)(b | 0x80000000u);
}
__device__ u64 order_bits(double k) {
    if (k == 0.0) k = 0.0;
    u64 b = (u64)__double_as_longlong(k);
    return (b & 0x8000000000000000ull) ? ~b : (b | 0x8000000000000000ull);
}
__device__ u64 order_bits(signed char k) { return (u64)(unsigned char)((unsigned char)k ^ 0x80u); }
__device__ u64 order_bits(short k) { return (u64)(unsigned short)((unsigned short)k ^ 0x8000u); }
__device__ u64 order_bits(int k) { return (u64)((unsigned)k ^ 0x80000000u); }
__device__ u64 order_bits(long long k) { return (u64)k ^ 0x8000000000000000ull; }
__device__ u64 order_bits(unsigned char k) { return k; }
__device__ u64 order_bits(unsigned short k) { return k; }
__device__ u64 order_bits(unsigned k) { return k; }
__device__ u64 order_bits(u64 k) { return k; }

// The two rows cupy.lexsort orders by: row 1 (primary) the key's digit, row 0 the index, so ties
// keep their input order.
template <class T>
__global__ void sort_rows(const T* keys, u64* rows, i64 n, int begin_bit, int width, int descending) {
    EACH(i, n) {
        u64 digit = order_bits(keys[i]) >> begin_bit;
        if (width < 64) digit &= width == 0 ? 0ull : ((1ull << width) - 1);
        rows[i] = (u64)i;
        rows[n + i] = descending ? ~digit : digit;
    }
}

template <class T>
__global__ void gather(const T* in, const i64* order, T* out, i64 n) {
    EACH(i, n) out[i] = in[order[i]];
}

__global__ void gather_bytes(const unsigned char* in, const i64* order, unsigned char* out, i64 n, int size) {
    EACH(i, n * size) out[i] = in[order[i / size] * size + i % size];
}

template <class F>
__global__ void flag_mask(const F* flags, int* mask, i64 n) {
    EACH(i, n) mask[i] = flags[i] != (F)0;
}

template <class T>
__global__ void head_mask(const T* items, int* mask, i64 n) {
    EACH(i, n) mask[i] = i == 0 || !(items[i] == items[i - 1]);
}

// position: the inclusive scan of mask; a kept item goes to position - 1.
template <class T>
__global__ void compact(const T* in, const int* mask, const int* position, T* out, i64 n) {
    EACH(i, n) if (mask[i]) out[position[i] - 1] = in[i];
}

__global__ void compact_index(const int* mask, const int* position, i64* starts, i64 n) {
    EACH(i, n) if (mask[i]) starts[position[i] - 1] = i;
}

template <class L>
__global__ void run_lengths(const i64* starts, i64 runs, i64 n, L* lengths) {
    EACH(r, runs) lengths[r] = (L)((r + 1 < runs ? starts[r + 1] : n) - starts[r]);
}

template <class T>
__global__ void histogram_even(const T* samples, u64* counts, i64 n, i64 bins, double lower, double upper,
                               int integer) {
    EACH(i, n) {
        const double sample = (double)samples[i];
        if (!(sample >= lower && sample < upper)) continue;
        i64 bin = integer ? ((i64)samples[i] - (i64)lower) * bins / ((i64)upper - (i64)lower)
                          : (i64)((sample - lower) * ((double)bins / (upper - lower)));
        bin = bin < 0 ? 0 : (bin >= bins ? bins - 1 : bin);
        atomicAdd(&counts[bin], 1ull);
    }
}

template <class T, class R>
__global__ void convert(const T* in, R* out, i64 n) {
    EACH(i, n) out[i] = (R)in[i];
}

// One block per segment: a strided pass, then a tree over the block's partial results.
template <class T, class O>
__global__ void segmented_reduce(const T* in, const O* begins, const O* ends, T* out, i64 segments, int op, T init) {
    __shared__ T partial[256];
    __shared__ int has[256];
    for (i64 s = blockIdx.x; s < segments; s += gridDim.x) {
        const i64 begin = (i64)begins[s], end = (i64)ends[s];
        T value = init;
        int seen = 0;
        for (i64 i = begin + threadIdx.x; i < end; i += blockDim.x) {
            value = seen ? combine(op, value, in[i]) : in[i];
            seen = 1;
        }
        partial[threadIdx.x] = value;
        has[threadIdx.x] = seen;
        __syncthreads();
        for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
            if (threadIdx.x < stride && has[threadIdx.x + stride]) {
                partial[threadIdx.x] = has[threadIdx.x] ? combine(op, partial[threadIdx.x], partial[threadIdx.x + stride])
                                                        : partial[threadIdx.x + stride];
                has[threadIdx.x] = 1;
            }
            __syncthreads();
        }
        if (threadIdx.x == 0) out[s] = has[0] ? combine(op, init, partial[0]) : init;
        __syncthreads();
    }
}

template <class T>
__global__ void fill_items(T* out, i64 n, T start, T step, int sequence) {
    EACH(i, n) out[i] = sequence ? (T)(start + (T)i * step) : start;
}

template <class T>
__global__ void count_equal(const T* in, i64 n, T value, u64* count) {
    u64 mine = 0;
    EACH(i, n) mine += in[i] == value;
    if (mine) atomicAdd(count, mine);
}

// One step of a log-step inclusive scan: out[i] = op(in[i - shift], in[i]).
template <class T>
__global__ void scan_step(const T* in, T* out, i64 n, i64 shift, int op) {
    EACH(i, n) out[i] = i >= shift ? combine(op, in[i - shift], in[i]) : in[i];
}

template <class T>
__global__ void exclusive_from_inclusive(const T* inclusive, T* out, i64 n, T init, int op) {
    EACH(i, n) out[i] = i == 0 ? init : combine(op, init, inclusive[i - 1]);
}
