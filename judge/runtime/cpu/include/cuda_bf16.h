// <cuda_bf16.h> for the CPU backend: __nv_bfloat16 (and __nv_bfloat162) stored as the top 16 bits of
// a float; arithmetic and comparisons go through float, conversions round to nearest even.
#pragma once

#include "../cuda_cpu.h"

struct __nv_bfloat16 {
    __nv_bfloat16() = default;
    __nv_bfloat16(float v) : __x(encode(v)) {}
    __nv_bfloat16(double v) : __x(encode(static_cast<float>(v))) {}
    template <class Int, std::enable_if_t<std::is_integral_v<Int>, int> = 0>
    __nv_bfloat16(Int v) : __x(encode(static_cast<float>(v))) {}
    operator float() const {
        const unsigned int bits = static_cast<unsigned int>(__x) << 16;
        float f;
        std::memcpy(&f, &bits, sizeof f);
        return f;
    }

    static unsigned short encode(float f) {
        unsigned int bits;
        std::memcpy(&bits, &f, sizeof bits);
        if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<unsigned short>((bits >> 16) | 0x40u);   // quiet NaN
        bits += 0x7fffu + ((bits >> 16) & 1u);                                                              // nearest even
        return static_cast<unsigned short>(bits >> 16);
    }

    unsigned short __x;
};

struct __attribute__((aligned(4))) __nv_bfloat162 {
    __nv_bfloat16 x, y;
};

typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

inline __nv_bfloat16 __float2bfloat16(float v) { return __nv_bfloat16(v); }
inline __nv_bfloat16 __float2bfloat16_rn(float v) { return __nv_bfloat16(v); }
inline float __bfloat162float(__nv_bfloat16 h) { return static_cast<float>(h); }
inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short bits) {
    __nv_bfloat16 h;
    h.__x = bits;
    return h;
}
inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return h.__x; }
inline __nv_bfloat162 __floats2bfloat162_rn(float lo, float hi) { return {__nv_bfloat16(lo), __nv_bfloat16(hi)}; }
inline __nv_bfloat162 __float2bfloat162_rn(float v) { return {__nv_bfloat16(v), __nv_bfloat16(v)}; }
inline float2 __bfloat1622float2(__nv_bfloat162 v) { return {static_cast<float>(v.x), static_cast<float>(v.y)}; }
inline __nv_bfloat16 __low2bfloat16(__nv_bfloat162 v) { return v.x; }
inline __nv_bfloat16 __high2bfloat16(__nv_bfloat162 v) { return v.y; }

inline __nv_bfloat16 __hadd(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat16(float(a) + float(b)); }
inline __nv_bfloat16 __hsub(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat16(float(a) - float(b)); }
inline __nv_bfloat16 __hmul(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat16(float(a) * float(b)); }
inline __nv_bfloat16 __hdiv(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat16(float(a) / float(b)); }
inline __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) { return __nv_bfloat16(std::fma(float(a), float(b), float(c))); }
inline __nv_bfloat16 __hneg(__nv_bfloat16 a) { return __nv_bfloat16(-float(a)); }
inline __nv_bfloat16 __hmax(__nv_bfloat16 a, __nv_bfloat16 b) { return float(a) < float(b) ? b : a; }
inline __nv_bfloat16 __hmin(__nv_bfloat16 a, __nv_bfloat16 b) { return float(b) < float(a) ? b : a; }
inline bool __hgt(__nv_bfloat16 a, __nv_bfloat16 b) { return float(a) > float(b); }
inline bool __hlt(__nv_bfloat16 a, __nv_bfloat16 b) { return float(a) < float(b); }
inline bool __hge(__nv_bfloat16 a, __nv_bfloat16 b) { return float(a) >= float(b); }
inline bool __hle(__nv_bfloat16 a, __nv_bfloat16 b) { return float(a) <= float(b); }
inline bool __heq(__nv_bfloat16 a, __nv_bfloat16 b) { return float(a) == float(b); }
