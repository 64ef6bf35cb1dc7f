// Device intrinsics: fast math, rounding conversions, bit manipulation, integer helpers,
// min/max overloads, cache-hinted loads and stores, fences and clocks.
#pragma once

namespace cudajudge::detail {

template <class To, class From>
inline To bit_cast(From v) {
    static_assert(sizeof(To) == sizeof(From), "bit_cast needs equal sizes");
    To out;
    std::memcpy(&out, &v, sizeof out);
    return out;
}

// Float-to-integer conversions saturate on the GPU and turn NaN into 0.
template <class Int, class Float>
inline Int saturating_cast(Float v) {
    if (v != v) return 0;
    if (v <= static_cast<Float>(std::numeric_limits<Int>::min())) return std::numeric_limits<Int>::min();
    if (v >= static_cast<Float>(std::numeric_limits<Int>::max())) return std::numeric_limits<Int>::max();
    return static_cast<Int>(v);
}

void yield_thread(int line);
[[noreturn]] void trap(const char* what, int line);

}  // namespace cudajudge::detail

// ---- rounding conversions -------------------------------------------------------------
#define CUDAJUDGE_CONVERSIONS(name, Float, Int)                                                                   \
    inline Int name##_rn(Float v) { return ::cudajudge::detail::saturating_cast<Int>(std::nearbyint(v)); }       \
    inline Int name##_rz(Float v) { return ::cudajudge::detail::saturating_cast<Int>(std::trunc(v)); }           \
    inline Int name##_rd(Float v) { return ::cudajudge::detail::saturating_cast<Int>(std::floor(v)); }           \
    inline Int name##_ru(Float v) { return ::cudajudge::detail::saturating_cast<Int>(std::ceil(v)); }
CUDAJUDGE_CONVERSIONS(__float2int, float, int)
CUDAJUDGE_CONVERSIONS(__float2uint, float, unsigned int)
CUDAJUDGE_CONVERSIONS(__float2ll, float, long long)
CUDAJUDGE_CONVERSIONS(__float2ull, float, unsigned long long)
CUDAJUDGE_CONVERSIONS(__double2int, double, int)
CUDAJUDGE_CONVERSIONS(__double2uint, double, unsigned int)
CUDAJUDGE_CONVERSIONS(__double2ll, double, long long)
CUDAJUDGE_CONVERSIONS(__double2ull, double, unsigned long long)
#undef CUDAJUDGE_CONVERSIONS

inline float __int2float_rn(int v) { return static_cast<float>(v); }
inline float __uint2float_rn(unsigned int v) { return static_cast<float>(v); }
inline float __ll2float_rn(long long v) { return static_cast<float>(v); }
inline float __ull2float_rn(unsigned long long v) { return static_cast<float>(v); }
inline double __int2double_rn(int v) { return static_cast<double>(v); }
inline double __uint2double_rn(unsigned int v) { return static_cast<double>(v); }
inline double __ll2double_rn(long long v) { return static_cast<double>(v); }
inline double __ull2double_rn(unsigned long long v) { return static_cast<double>(v); }
inline float __double2float_rn(double v) { return static_cast<float>(v); }

// ---- reinterpretation ------------------------------------------------------------------
inline int __float_as_int(float v) { return cudajudge::detail::bit_cast<int>(v); }
inline unsigned int __float_as_uint(float v) { return cudajudge::detail::bit_cast<unsigned int>(v); }
inline float __int_as_float(int v) { return cudajudge::detail::bit_cast<float>(v); }
inline float __uint_as_float(unsigned int v) { return cudajudge::detail::bit_cast<float>(v); }
inline long long __double_as_longlong(double v) { return cudajudge::detail::bit_cast<long long>(v); }
inline double __longlong_as_double(long long v) { return cudajudge::detail::bit_cast<double>(v); }
inline int __double2hiint(double v) { return static_cast<int>(__double_as_longlong(v) >> 32); }
inline int __double2loint(double v) { return static_cast<int>(__double_as_longlong(v)); }
inline double __hiloint2double(int hi, int lo) {
    return __longlong_as_double(static_cast<long long>((static_cast<unsigned long long>(static_cast<unsigned int>(hi)) << 32) |
                                                       static_cast<unsigned int>(lo)));
}

// ---- fast and correctly rounded arithmetic ---------------------------------------------
inline float __expf(float x) { return std::exp(x); }
inline float __exp10f(float x) { return std::pow(10.0f, x); }
inline float __logf(float x) { return std::log(x); }
inline float __log2f(float x) { return std::log2(x); }
inline float __log10f(float x) { return std::log10(x); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __tanf(float x) { return std::tan(x); }
inline void __sincosf(float x, float* s, float* c) { *s = std::sin(x); *c = std::cos(x); }
inline float __powf(float x, float y) { return std::pow(x, y); }
inline float __fdividef(float x, float y) { return x / y; }
inline float fdividef(float x, float y) { return x / y; }
inline float __saturatef(float x) { return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f; }
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float rcbrtf(float x) { return 1.0f / std::cbrt(x); }
inline double rcbrt(double x) { return 1.0 / std::cbrt(x); }
inline float sinpif(float x) { return std::sin(3.14159265358979323846f * x); }
inline float cospif(float x) { return std::cos(3.14159265358979323846f * x); }
inline double sinpi(double x) { return std::sin(3.14159265358979323846 * x); }
inline double cospi(double x) { return std::cos(3.14159265358979323846 * x); }
inline float normcdff(float x) { return 0.5f * std::erfc(-x * 0.70710678118654752f); }
inline double normcdf(double x) { return 0.5 * std::erfc(-x * 0.70710678118654752); }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __fsqrt_rn(float x) { return std::sqrt(x); }
inline float __frsqrt_rn(float x) { return 1.0f / std::sqrt(x); }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fsub_rn(float a, float b) { return a - b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fdiv_rn(float a, float b) { return a / b; }
inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dsub_rn(double a, double b) { return a - b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline double __ddiv_rn(double a, double b) { return a / b; }
inline double __drcp_rn(double x) { return 1.0 / x; }
inline double __dsqrt_rn(double x) { return std::sqrt(x); }
inline double __fma_rn(double a, double b, double c) { return std::fma(a, b, c); }

// ---- bit manipulation ------------------------------------------------------------------
inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned int>(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned int __brev(unsigned int x) {
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
    return __builtin_bswap32(x);
}
inline unsigned long long __brevll(unsigned long long x) {
    return (static_cast<unsigned long long>(__brev(static_cast<unsigned int>(x))) << 32) | __brev(static_cast<unsigned int>(x >> 32));
}
inline unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
    unsigned long long bytes = (static_cast<unsigned long long>(y) << 32) | x;
    unsigned int out = 0;
    for (int i = 0; i < 4; ++i) out |= static_cast<unsigned int>((bytes >> (8 * ((s >> (4 * i)) & 7))) & 0xFF) << (8 * i);
    return out;
}
inline unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift) {
    return static_cast<unsigned int>((((static_cast<unsigned long long>(hi) << 32) | lo) << (shift & 31)) >> 32);
}
inline unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int shift) {
    return shift >= 32 ? lo : __funnelshift_l(lo, hi, shift);
}
inline unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift) {
    return static_cast<unsigned int>((((static_cast<unsigned long long>(hi) << 32) | lo) >> (shift & 31)));
}
inline unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int shift) {
    return shift >= 32 ? hi : __funnelshift_r(lo, hi, shift);
}

// ---- integer helpers -------------------------------------------------------------------
inline int __mul24(int a, int b) { return static_cast<int>(static_cast<long long>((a << 8) >> 8) * ((b << 8) >> 8)); }
inline unsigned int __umul24(unsigned int a, unsigned int b) { return (a & 0xFFFFFFu) * (b & 0xFFFFFFu); }
inline int __mulhi(int a, int b) { return static_cast<int>((static_cast<long long>(a) * b) >> 32); }
inline unsigned int __umulhi(unsigned int a, unsigned int b) { return static_cast<unsigned int>((static_cast<unsigned long long>(a) * b) >> 32); }
inline long long __mul64hi(long long a, long long b) { return static_cast<long long>((static_cast<__int128>(a) * b) >> 64); }
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
    return static_cast<unsigned long long>((static_cast<unsigned __int128>(a) * b) >> 64);
}
inline int __hadd(int a, int b) { return static_cast<int>((static_cast<long long>(a) + b) >> 1); }
inline int __rhadd(int a, int b) { return static_cast<int>((static_cast<long long>(a) + b + 1) >> 1); }
inline unsigned int __uhadd(unsigned int a, unsigned int b) { return static_cast<unsigned int>((static_cast<unsigned long long>(a) + b) >> 1); }
inline unsigned int __urhadd(unsigned int a, unsigned int b) { return static_cast<unsigned int>((static_cast<unsigned long long>(a) + b + 1) >> 1); }
inline unsigned int __sad(int a, int b, unsigned int c) { return c + static_cast<unsigned int>(a > b ? static_cast<long long>(a) - b : static_cast<long long>(b) - a); }
inline unsigned int __usad(unsigned int a, unsigned int b, unsigned int c) { return c + (a > b ? a - b : b - a); }

#include "../../cudajudge_min_max.h"
inline unsigned int umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
inline unsigned int umax(unsigned int a, unsigned int b) { return a > b ? a : b; }
inline long long llmin(long long a, long long b) { return a < b ? a : b; }
inline long long llmax(long long a, long long b) { return a > b ? a : b; }
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }

// ---- cache-hinted memory access: plain loads and stores on the CPU ----------------------
template <class T> inline T __ldg(const T* p) { return *p; }
template <class T> inline T __ldca(const T* p) { return *p; }
template <class T> inline T __ldcg(const T* p) { return *p; }
template <class T> inline T __ldcs(const T* p) { return *p; }
template <class T> inline T __ldlu(const T* p) { return *p; }
template <class T> inline T __ldcv(const T* p) { return *p; }
template <class T> inline void __stwb(T* p, T v) { *p = v; }
template <class T> inline void __stcg(T* p, T v) { *p = v; }
template <class T> inline void __stcs(T* p, T v) { *p = v; }
template <class T> inline void __stwt(T* p, T v) { *p = v; }

// ---- fences, clocks, sleeping, traps ---------------------------------------------------
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
// All threads of a block share one OS thread, so ordering them needs only a compiler fence.
inline void __threadfence_block() { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
inline long long clock64() { return static_cast<long long>(__builtin_ia32_rdtsc()); }
// Sleeping is a scheduling point: spin-waits that sleep let the other threads of the block run.
inline void __nanosleep(unsigned int, int line = __builtin_LINE()) { cudajudge::detail::yield_thread(line); }
[[noreturn]] inline void __trap(int line = __builtin_LINE()) { cudajudge::detail::trap("__trap()", line); }
[[noreturn]] inline void __brkpt(int line = __builtin_LINE()) { cudajudge::detail::trap("__brkpt()", line); }
