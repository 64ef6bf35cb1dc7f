// <cuda_fp16.h> for the CPU backend: __half and __half2 with IEEE binary16 storage; arithmetic
// goes through float, conversions round to nearest even.
#pragma once

#include "../cuda_cpu.h"

struct __half {
    __half() = default;
    __half(float v) : __x(encode(v)) {}
    __half(double v) : __x(encode(static_cast<float>(v))) {}
    template <class Int, std::enable_if_t<std::is_integral_v<Int>, int> = 0>
    __half(Int v) : __x(encode(static_cast<float>(v))) {}
    operator float() const {
        _Float16 h;
        std::memcpy(&h, &__x, sizeof h);
        return static_cast<float>(h);
    }

    static unsigned short encode(float v) {
        _Float16 h = static_cast<_Float16>(v);
        unsigned short bits;
        std::memcpy(&bits, &h, sizeof bits);
        return bits;
    }

    unsigned short __x;
};

struct __attribute__((aligned(4))) __half2 {
    __half x, y;
};

typedef __half half;
typedef __half2 half2;

inline __half __ushort_as_half(unsigned short bits) {
    __half h;
    h.__x = bits;
    return h;
}
inline unsigned short __half_as_ushort(__half h) { return h.__x; }
inline __half __short_as_half(short bits) { return __ushort_as_half(static_cast<unsigned short>(bits)); }
inline short __half_as_short(__half h) { return static_cast<short>(h.__x); }

inline __half __float2half(float v) { return __half(v); }
inline __half __float2half_rn(float v) { return __half(v); }
inline __half __double2half(double v) { return __half(v); }
inline float __half2float(__half h) { return static_cast<float>(h); }
inline __half __int2half_rn(int v) { return __half(static_cast<float>(v)); }
inline int __half2int_rn(__half h) { return __float2int_rn(static_cast<float>(h)); }
inline int __half2int_rz(__half h) { return __float2int_rz(static_cast<float>(h)); }

inline __half2 __halves2half2(__half lo, __half hi) { return {lo, hi}; }
inline __half2 __half2half2(__half v) { return {v, v}; }
inline __half2 __float2half2_rn(float v) { return {__half(v), __half(v)}; }
inline __half2 __floats2half2_rn(float lo, float hi) { return {__half(lo), __half(hi)}; }
inline float2 __half22float2(__half2 v) { return {static_cast<float>(v.x), static_cast<float>(v.y)}; }
inline __half __low2half(__half2 v) { return v.x; }
inline __half __high2half(__half2 v) { return v.y; }
inline float __low2float(__half2 v) { return static_cast<float>(v.x); }
inline float __high2float(__half2 v) { return static_cast<float>(v.y); }

inline __half __hadd(__half a, __half b) { return __half(static_cast<float>(a) + static_cast<float>(b)); }
inline __half __hsub(__half a, __half b) { return __half(static_cast<float>(a) - static_cast<float>(b)); }
inline __half __hmul(__half a, __half b) { return __half(static_cast<float>(a) * static_cast<float>(b)); }
inline __half __hdiv(__half a, __half b) { return __half(static_cast<float>(a) / static_cast<float>(b)); }
inline __half __hfma(__half a, __half b, __half c) { return __half(std::fma(static_cast<float>(a), static_cast<float>(b), static_cast<float>(c))); }
inline __half __hneg(__half a) { return __ushort_as_half(static_cast<unsigned short>(a.__x ^ 0x8000u)); }
inline __half __habs(__half a) { return __ushort_as_half(static_cast<unsigned short>(a.__x & 0x7FFFu)); }
inline __half __hmax(__half a, __half b) { return __half(std::fmax(static_cast<float>(a), static_cast<float>(b))); }
inline __half __hmin(__half a, __half b) { return __half(std::fmin(static_cast<float>(a), static_cast<float>(b))); }
inline bool __heq(__half a, __half b) { return static_cast<float>(a) == static_cast<float>(b); }
inline bool __hne(__half a, __half b) { return static_cast<float>(a) != static_cast<float>(b); }
inline bool __hlt(__half a, __half b) { return static_cast<float>(a) < static_cast<float>(b); }
inline bool __hle(__half a, __half b) { return static_cast<float>(a) <= static_cast<float>(b); }
inline bool __hgt(__half a, __half b) { return static_cast<float>(a) > static_cast<float>(b); }
inline bool __hge(__half a, __half b) { return static_cast<float>(a) >= static_cast<float>(b); }
inline bool __hisnan(__half a) { return (a.__x & 0x7FFFu) > 0x7C00u; }
inline bool __hisinf(__half a) { return (a.__x & 0x7FFFu) == 0x7C00u; }
inline __half hsqrt(__half a) { return __half(std::sqrt(static_cast<float>(a))); }
inline __half hrsqrt(__half a) { return __half(1.0f / std::sqrt(static_cast<float>(a))); }
inline __half hexp(__half a) { return __half(std::exp(static_cast<float>(a))); }
inline __half hlog(__half a) { return __half(std::log(static_cast<float>(a))); }

inline __half operator+(__half a, __half b) { return __hadd(a, b); }
inline __half operator-(__half a, __half b) { return __hsub(a, b); }
inline __half operator*(__half a, __half b) { return __hmul(a, b); }
inline __half operator/(__half a, __half b) { return __hdiv(a, b); }
inline __half operator-(__half a) { return __hneg(a); }
inline __half& operator+=(__half& a, __half b) { return a = __hadd(a, b); }
inline __half& operator-=(__half& a, __half b) { return a = __hsub(a, b); }
inline __half& operator*=(__half& a, __half b) { return a = __hmul(a, b); }
inline __half& operator/=(__half& a, __half b) { return a = __hdiv(a, b); }
inline bool operator==(__half a, __half b) { return __heq(a, b); }
inline bool operator!=(__half a, __half b) { return __hne(a, b); }
inline bool operator<(__half a, __half b) { return __hlt(a, b); }
inline bool operator<=(__half a, __half b) { return __hle(a, b); }
inline bool operator>(__half a, __half b) { return __hgt(a, b); }
inline bool operator>=(__half a, __half b) { return __hge(a, b); }

inline __half2 __hadd2(__half2 a, __half2 b) { return {__hadd(a.x, b.x), __hadd(a.y, b.y)}; }
inline __half2 __hsub2(__half2 a, __half2 b) { return {__hsub(a.x, b.x), __hsub(a.y, b.y)}; }
inline __half2 __hmul2(__half2 a, __half2 b) { return {__hmul(a.x, b.x), __hmul(a.y, b.y)}; }
inline __half2 __h2div(__half2 a, __half2 b) { return {__hdiv(a.x, b.x), __hdiv(a.y, b.y)}; }
inline __half2 __hfma2(__half2 a, __half2 b, __half2 c) { return {__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)}; }
inline __half2 operator+(__half2 a, __half2 b) { return __hadd2(a, b); }
inline __half2 operator-(__half2 a, __half2 b) { return __hsub2(a, b); }
inline __half2 operator*(__half2 a, __half2 b) { return __hmul2(a, b); }
inline __half2 operator/(__half2 a, __half2 b) { return __h2div(a, b); }

inline __half atomicAdd(__half* p, __half v) {
    auto* bits = reinterpret_cast<unsigned short*>(p);
    unsigned short old = __atomic_load_n(bits, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(bits, &old, __hadd(__ushort_as_half(old), v).__x, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
    return __ushort_as_half(old);
}
