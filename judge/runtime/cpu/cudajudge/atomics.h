// CUDA atomics on host memory. Blocks run concurrently on several OS threads, so these are
// real hardware atomics; relaxed order is what CUDA promises without a fence.
#pragma once

namespace cudajudge::detail {

// A failed compare-and-swap is where spin locks wait: let the other threads of the block run.
void contended(int line);

template <class T>
inline T atomic_cas(T* p, T expected, T desired) {
    __atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return expected;
}

// Read-modify-write through compare-and-swap on the value's bits, for operations the
// hardware has no instruction for (float add, min/max, wrapping increment).
template <class T, class Update>
inline T atomic_update(T* p, Update update) {
    using Bits = std::conditional_t<sizeof(T) == 4, unsigned int, unsigned long long>;
    Bits* bits = reinterpret_cast<Bits*>(p);
    Bits old = __atomic_load_n(bits, __ATOMIC_RELAXED);
    for (;;) {
        Bits desired = bit_cast<Bits>(static_cast<T>(update(bit_cast<T>(old))));
        if (__atomic_compare_exchange_n(bits, &old, desired, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            return bit_cast<T>(old);
    }
}

}  // namespace cudajudge::detail

#define CUDAJUDGE_ATOMIC_INTEGER(T)                                                                              \
    inline T atomicAdd(T* p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }                         \
    inline T atomicSub(T* p, T v) { return __atomic_fetch_sub(p, v, __ATOMIC_RELAXED); }                         \
    inline T atomicExch(T* p, T v) { return __atomic_exchange_n(p, v, __ATOMIC_RELAXED); }                       \
    inline T atomicAnd(T* p, T v) { return __atomic_fetch_and(p, v, __ATOMIC_RELAXED); }                         \
    inline T atomicOr(T* p, T v) { return __atomic_fetch_or(p, v, __ATOMIC_RELAXED); }                           \
    inline T atomicXor(T* p, T v) { return __atomic_fetch_xor(p, v, __ATOMIC_RELAXED); }                         \
    inline T atomicMin(T* p, T v) { return cudajudge::detail::atomic_update(p, [v](T old) { return old < v ? old : v; }); } \
    inline T atomicMax(T* p, T v) { return cudajudge::detail::atomic_update(p, [v](T old) { return old > v ? old : v; }); } \
    inline T atomicCAS(T* p, T expected, T desired, int line = __builtin_LINE()) {                               \
        T old = cudajudge::detail::atomic_cas(p, expected, desired);                                              \
        if (old != expected) cudajudge::detail::contended(line);                                                  \
        return old;                                                                                               \
    }
CUDAJUDGE_ATOMIC_INTEGER(int)
CUDAJUDGE_ATOMIC_INTEGER(unsigned int)
CUDAJUDGE_ATOMIC_INTEGER(unsigned long long int)
CUDAJUDGE_ATOMIC_INTEGER(long long int)
#undef CUDAJUDGE_ATOMIC_INTEGER

inline unsigned short atomicCAS(unsigned short* p, unsigned short expected, unsigned short desired, int line = __builtin_LINE()) {
    unsigned short old = cudajudge::detail::atomic_cas(p, expected, desired);
    if (old != expected) cudajudge::detail::contended(line);
    return old;
}

// atomicInc wraps to 0 after reaching `limit`; atomicDec wraps to `limit` at 0 or above it.
inline unsigned int atomicInc(unsigned int* p, unsigned int limit) {
    return cudajudge::detail::atomic_update(p, [limit](unsigned int old) { return old >= limit ? 0u : old + 1; });
}
inline unsigned int atomicDec(unsigned int* p, unsigned int limit) {
    return cudajudge::detail::atomic_update(p, [limit](unsigned int old) { return (old == 0 || old > limit) ? limit : old - 1; });
}

#define CUDAJUDGE_ATOMIC_FLOAT(T)                                                                                \
    inline T atomicAdd(T* p, T v) { return cudajudge::detail::atomic_update(p, [v](T old) { return old + v; }); } \
    inline T atomicSub(T* p, T v) { return cudajudge::detail::atomic_update(p, [v](T old) { return old - v; }); } \
    inline T atomicExch(T* p, T v) { return cudajudge::detail::atomic_update(p, [v](T) { return v; }); }          \
    inline T atomicMin(T* p, T v) { return cudajudge::detail::atomic_update(p, [v](T old) { return std::fmin(old, v); }); } \
    inline T atomicMax(T* p, T v) { return cudajudge::detail::atomic_update(p, [v](T old) { return std::fmax(old, v); }); }
CUDAJUDGE_ATOMIC_FLOAT(float)
CUDAJUDGE_ATOMIC_FLOAT(double)
#undef CUDAJUDGE_ATOMIC_FLOAT

// Scoped variants: the same operations on the CPU.
#define atomicAdd_block atomicAdd
#define atomicAdd_system atomicAdd
#define atomicSub_block atomicSub
#define atomicSub_system atomicSub
#define atomicExch_block atomicExch
#define atomicExch_system atomicExch
#define atomicMin_block atomicMin
#define atomicMin_system atomicMin
#define atomicMax_block atomicMax
#define atomicMax_system atomicMax
#define atomicCAS_block atomicCAS
#define atomicCAS_system atomicCAS
#define atomicAnd_block atomicAnd
#define atomicAnd_system atomicAnd
#define atomicOr_block atomicOr
#define atomicOr_system atomicOr
#define atomicXor_block atomicXor
#define atomicXor_system atomicXor
#define atomicInc_block atomicInc
#define atomicInc_system atomicInc
#define atomicDec_block atomicDec
#define atomicDec_system atomicDec
