// CUDA's vector types (char1 ... double4), their make_* constructors, and dim3.
// They stay trivial aggregates so that they can live in __shared__ (thread-local) storage.
#pragma once

#define CUDAJUDGE_VECTOR_TYPE(name, T, align2, align4)                                   \
    struct name##1 { T x; };                                                             \
    struct __attribute__((aligned(align2))) name##2 { T x, y; };                         \
    struct name##3 { T x, y, z; };                                                       \
    struct __attribute__((aligned(align4))) name##4 { T x, y, z, w; };                   \
    inline constexpr name##1 make_##name##1(T x) { return {x}; }                         \
    inline constexpr name##2 make_##name##2(T x, T y) { return {x, y}; }                 \
    inline constexpr name##3 make_##name##3(T x, T y, T z) { return {x, y, z}; }         \
    inline constexpr name##4 make_##name##4(T x, T y, T z, T w) { return {x, y, z, w}; }

CUDAJUDGE_VECTOR_TYPE(char, signed char, 2, 4)
CUDAJUDGE_VECTOR_TYPE(uchar, unsigned char, 2, 4)
CUDAJUDGE_VECTOR_TYPE(short, short, 4, 8)
CUDAJUDGE_VECTOR_TYPE(ushort, unsigned short, 4, 8)
CUDAJUDGE_VECTOR_TYPE(int, int, 8, 16)
CUDAJUDGE_VECTOR_TYPE(uint, unsigned int, 8, 16)
CUDAJUDGE_VECTOR_TYPE(long, long, 16, 16)
CUDAJUDGE_VECTOR_TYPE(ulong, unsigned long, 16, 16)
CUDAJUDGE_VECTOR_TYPE(longlong, long long, 16, 16)
CUDAJUDGE_VECTOR_TYPE(ulonglong, unsigned long long, 16, 16)
CUDAJUDGE_VECTOR_TYPE(float, float, 8, 16)
CUDAJUDGE_VECTOR_TYPE(double, double, 16, 16)

#undef CUDAJUDGE_VECTOR_TYPE

struct dim3 {
    unsigned int x, y, z;
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return {x, y, z}; }
};
