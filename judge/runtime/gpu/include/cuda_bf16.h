// Host side of <cuda_bf16.h> for submissions: the __nv_bfloat16 type and conversions.
#pragma once
#include <cuda_runtime.h>

#include <cstring>

struct __align__(2) __nv_bfloat16 {
    unsigned short __x;
};
typedef __nv_bfloat16 nv_bfloat16;

inline float __bfloat162float(__nv_bfloat16 h) {
    unsigned int bits = static_cast<unsigned int>(h.__x) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

inline __nv_bfloat16 __float2bfloat16(float f) {
    unsigned int bits;
    std::memcpy(&bits, &f, sizeof bits);
    __nv_bfloat16 h;
    if ((bits & 0x7fffffffu) > 0x7f800000u) {
        h.__x = static_cast<unsigned short>((bits >> 16) | 0x40u);   // quiet NaN
    } else {
        bits += 0x7fffu + ((bits >> 16) & 1u);                         // round to nearest even
        h.__x = static_cast<unsigned short>(bits >> 16);
    }
    return h;
}
