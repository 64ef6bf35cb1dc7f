// Host side of <cuda_fp16.h> for submissions: the __half type (IEEE binary16) and conversions.
#pragma once
#include <cuda_runtime.h>

#include <cstring>

struct __align__(2) __half {
    unsigned short __x;
};
typedef __half half;

struct __align__(4) __half2 {
    __half x, y;
};

inline float __half2float(__half h) {
    unsigned int sign = (h.__x & 0x8000u) << 16, exponent = (h.__x >> 10) & 0x1fu, mantissa = h.__x & 0x3ffu, bits;
    if (exponent == 0x1f) {
        bits = sign | 0x7f800000u | (mantissa << 13);
    } else if (exponent == 0) {
        float value = static_cast<float>(mantissa) / 16777216.0f;   // subnormal: mantissa * 2^-24
        return sign ? -value : value;
    } else {
        bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
    }
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

inline __half __float2half(float f) {
    unsigned int bits;
    std::memcpy(&bits, &f, sizeof bits);
    unsigned int sign = (bits >> 16) & 0x8000u;
    int exponent = static_cast<int>((bits >> 23) & 0xffu) - 127 + 15;
    unsigned int mantissa = bits & 0x7fffffu;
    __half h;
    if (((bits >> 23) & 0xffu) == 0xffu) {
        h.__x = static_cast<unsigned short>(sign | 0x7c00u | (mantissa ? 0x200u : 0u));
    } else if (exponent >= 0x1f) {
        h.__x = static_cast<unsigned short>(sign | 0x7c00u);
    } else if (exponent <= 0) {
        if (exponent < -10) {
            h.__x = static_cast<unsigned short>(sign);
        } else {
            mantissa |= 0x800000u;
            unsigned int shift = static_cast<unsigned int>(14 - exponent);
            unsigned int half_mantissa = mantissa >> shift;
            unsigned int rest = mantissa & ((1u << shift) - 1), halfway = 1u << (shift - 1);
            if (rest > halfway || (rest == halfway && (half_mantissa & 1u))) ++half_mantissa;
            h.__x = static_cast<unsigned short>(sign | half_mantissa);
        }
    } else {
        unsigned int half_bits = sign | (static_cast<unsigned int>(exponent) << 10) | (mantissa >> 13);
        unsigned int rest = mantissa & 0x1fffu;
        if (rest > 0x1000u || (rest == 0x1000u && (half_bits & 1u))) ++half_bits;   // round to nearest even
        h.__x = static_cast<unsigned short>(half_bits);
    }
    return h;
}
