// The judge's CUDA runtime for the host side of a submission (GPU backend).
//
// A submission's host code (solve() and its helpers) is compiled by the host C++ compiler
// against this header instead of the CUDA toolkit's. It declares the runtime subset the judge
// supports; the implementation (gpu/runtime.cpp) serves cudaMalloc from an arena the judge owns,
// validates every launch before making it, and records each launch for error messages.
//
// Kernel launches reach this header already rewritten by the judge:
//     k<<<grid, block, smem, stream>>>(args)
//  -> cudajudge::launch(k, grid, block, smem, stream, LINE)(args)
// launch() records the configuration and returns the kernel's host stub, which the judge
// generated with the kernel's own parameter list; calling it converts the arguments as a
// kernel call would and hands their addresses to cudajudge::launch_pending().
#pragma once

// Standard headers come first: the CUDA qualifier macros defined below (__noinline__, ...) must not
// rewrite them (libstdc++ spells GNU attributes with the same names), and the judge's host library
// (Thrust, CUB's device-wide algorithms) includes them after this header.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>
// nvcc's cuda_runtime.h brings the C math functions (fmaxf, sqrtf, ...) to host code too.
#include <math.h>

#include "cudajudge_min_max.h"
#include "cudajudge_nvcc_names.h"

#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#ifndef __NVCC__
#define __NVCC__ 1
#endif
#define CUDART_VERSION 13000
// The judge's own kernels (cudajudge/functor_kernels.h) are stubs here, as the user's are.
#define CUDAJUDGE_KERNEL_STUBS 1
#define __global__
#define __device__
#define __host__
#define __constant__
#define __shared__
#define __managed__
#define __grid_constant__
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)
#define __cluster_dims__(...)

// --- vector types ---------------------------------------------------------------------------

#define CUDAJUDGE_VECTOR_TYPES(T, name)                                                                   \
    struct name##1 { T x; };                                                                              \
    struct __attribute__((aligned(2 * sizeof(T)))) name##2 { T x, y; };                                   \
    struct name##3 { T x, y, z; };                                                                        \
    struct __attribute__((aligned(4 * sizeof(T) > 16 ? 16 : 4 * sizeof(T)))) name##4 { T x, y, z, w; };  \
    inline name##1 make_##name##1(T x) { return {x}; }                                                   \
    inline name##2 make_##name##2(T x, T y) { return {x, y}; }                                           \
    inline name##3 make_##name##3(T x, T y, T z) { return {x, y, z}; }                                   \
    inline name##4 make_##name##4(T x, T y, T z, T w) { return {x, y, z, w}; }

CUDAJUDGE_VECTOR_TYPES(signed char, char)
CUDAJUDGE_VECTOR_TYPES(unsigned char, uchar)
CUDAJUDGE_VECTOR_TYPES(short, short)
CUDAJUDGE_VECTOR_TYPES(unsigned short, ushort)
CUDAJUDGE_VECTOR_TYPES(int, int)
CUDAJUDGE_VECTOR_TYPES(unsigned int, uint)
CUDAJUDGE_VECTOR_TYPES(long, long)
CUDAJUDGE_VECTOR_TYPES(unsigned long, ulong)
CUDAJUDGE_VECTOR_TYPES(long long, longlong)
CUDAJUDGE_VECTOR_TYPES(unsigned long long, ulonglong)
CUDAJUDGE_VECTOR_TYPES(float, float)
CUDAJUDGE_VECTOR_TYPES(double, double)
#undef CUDAJUDGE_VECTOR_TYPES

struct dim3 {
    unsigned int x, y, z;
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{x, y, z}; }
};

// --- errors, enums, properties ----------------------------------------------------------------

#include "cudajudge_runtime_types.h"

typedef struct CUstream_st* cudaStream_t;
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)

// --- the supported runtime subset -------------------------------------------------------------

extern "C" {
cudaError_t cudaMalloc(void** devPtr, size_t size);
cudaError_t cudaFree(void* devPtr);
cudaError_t cudaMemset(void* devPtr, int value, size_t count);
cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream = nullptr);
cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                            cudaStream_t stream = nullptr);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device);
cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* func, int blockSize,
                                                          size_t dynamicSMemSize);

// Launch plumbing used by the rewritten source (not for direct use).
void cudajudge_set_pending_launch(const void* kernel, dim3 grid, dim3 block, size_t smem, cudaStream_t stream,
                                  int line);
void cudajudge_launch_pending(void** args, size_t count);
void cudajudge_set_call_line(int line);
cudaError_t cudajudge_occupancy_max_potential_block_size(int* minGridSize, int* blockSize, const void* func,
                                                         size_t dynamicSMemSize, int blockSizeLimit);
}

template <class T>
inline cudaError_t cudaMalloc(T** devPtr, size_t size) {
    return cudaMalloc(reinterpret_cast<void**>(devPtr), size);
}
template <class R, class... P>
inline cudaError_t cudaFuncSetAttribute(R (*func)(P...), cudaFuncAttribute attr, int value) {
    return cudaFuncSetAttribute(reinterpret_cast<const void*>(func), attr, value);
}
template <class R, class... P>
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, R (*func)(P...), int blockSize,
                                                                 size_t dynamicSMemSize) {
    return cudaOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, reinterpret_cast<const void*>(func), blockSize,
                                                         dynamicSMemSize);
}
template <class R, class... P>
inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int* minGridSize, int* blockSize, R (*func)(P...),
                                                      size_t dynamicSMemSize = 0, int blockSizeLimit = 0) {
    return cudajudge_occupancy_max_potential_block_size(minGridSize, blockSize, reinterpret_cast<const void*>(func),
                                                        dynamicSMemSize, blockSizeLimit);
}

namespace cudajudge {

template <class F>
inline F* launch(F* kernel, dim3 grid, dim3 block, size_t smem, cudaStream_t stream, int line) {
    cudajudge_set_pending_launch(reinterpret_cast<const void*>(kernel), grid, block, smem, stream, line);
    return kernel;
}

inline void launch_pending(std::initializer_list<void*> args) {
    cudajudge_launch_pending(const_cast<void**>(args.begin()), args.size());
}

inline int at_line(int line) {
    cudajudge_set_call_line(line);
    return 0;
}

}  // namespace cudajudge

// Calls that can fail on the judge's terms record the user's line, for messages such as
// "cudaMalloc of 2147483648 bytes at line 17 exceeds the memory the problem allows".
#define cudaMalloc(...) (::cudajudge::at_line(__LINE__), ::cudaMalloc(__VA_ARGS__))
#define cudaFree(...) (::cudajudge::at_line(__LINE__), ::cudaFree(__VA_ARGS__))
#define cudaMemcpy(...) (::cudajudge::at_line(__LINE__), ::cudaMemcpy(__VA_ARGS__))
#define cudaMemcpyAsync(...) (::cudajudge::at_line(__LINE__), ::cudaMemcpyAsync(__VA_ARGS__))
#define cudaMemset(...) (::cudajudge::at_line(__LINE__), ::cudaMemset(__VA_ARGS__))
#define cudaMemsetAsync(...) (::cudajudge::at_line(__LINE__), ::cudaMemsetAsync(__VA_ARGS__))
#define cudaDeviceSynchronize(...) (::cudajudge::at_line(__LINE__), ::cudaDeviceSynchronize(__VA_ARGS__))
#define cudaStreamSynchronize(...) (::cudajudge::at_line(__LINE__), ::cudaStreamSynchronize(__VA_ARGS__))
