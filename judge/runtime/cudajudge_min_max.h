// min and max with CUDA's overload set, which nvcc's headers give host code as well as device code
// (non-templates, so they win over std::min and std::max). Included by the host runtime and by the
// CPU backend's runtime; NVRTC has its own device versions.
#pragma once

#define CUDAJUDGE_MIN_MAX(R, A, B)                                            \
    inline R min(A a, B b) { return static_cast<R>(a) < static_cast<R>(b) ? static_cast<R>(a) : static_cast<R>(b); } \
    inline R max(A a, B b) { return static_cast<R>(a) > static_cast<R>(b) ? static_cast<R>(a) : static_cast<R>(b); }
CUDAJUDGE_MIN_MAX(int, int, int)
CUDAJUDGE_MIN_MAX(unsigned int, unsigned int, unsigned int)
CUDAJUDGE_MIN_MAX(unsigned int, int, unsigned int)
CUDAJUDGE_MIN_MAX(unsigned int, unsigned int, int)
CUDAJUDGE_MIN_MAX(long, long, long)
CUDAJUDGE_MIN_MAX(unsigned long, unsigned long, unsigned long)
CUDAJUDGE_MIN_MAX(unsigned long, long, unsigned long)
CUDAJUDGE_MIN_MAX(unsigned long, unsigned long, long)
CUDAJUDGE_MIN_MAX(long long, long long, long long)
CUDAJUDGE_MIN_MAX(unsigned long long, unsigned long long, unsigned long long)
CUDAJUDGE_MIN_MAX(unsigned long long, long long, unsigned long long)
CUDAJUDGE_MIN_MAX(unsigned long long, unsigned long long, long long)
CUDAJUDGE_MIN_MAX(float, float, float)
CUDAJUDGE_MIN_MAX(double, double, double)
CUDAJUDGE_MIN_MAX(double, float, double)
CUDAJUDGE_MIN_MAX(double, double, float)
#undef CUDAJUDGE_MIN_MAX
