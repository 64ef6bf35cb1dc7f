// The CUDA runtime API subset a submission may call, served from host memory.
#pragma once

#include "../../cudajudge_runtime_types.h"

typedef struct CUstream_st* cudaStream_t;

// ---- errors ----------------------------------------------------------------------------
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
const char* cudaGetErrorString(cudaError_t error);
const char* cudaGetErrorName(cudaError_t error);

// ---- memory ----------------------------------------------------------------------------
cudaError_t cudaMalloc(void** ptr, size_t size, int line = __builtin_LINE());
template <class T>
inline cudaError_t cudaMalloc(T** ptr, size_t size, int line = __builtin_LINE()) {
    return cudaMalloc(reinterpret_cast<void**>(ptr), size, line);
}
cudaError_t cudaFree(void* ptr, int line = __builtin_LINE());
cudaError_t cudaMemset(void* ptr, int value, size_t count, int line = __builtin_LINE());
cudaError_t cudaMemsetAsync(void* ptr, int value, size_t count, cudaStream_t stream = 0, int line = __builtin_LINE());
cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind, int line = __builtin_LINE());
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind, cudaStream_t stream = 0,
                            int line = __builtin_LINE());

// ---- synchronization: launches run to completion before they return ----------------------
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaStreamSynchronize(cudaStream_t stream);

// ---- device ----------------------------------------------------------------------------
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device);

// ---- kernels ---------------------------------------------------------------------------
namespace cudajudge::detail {
cudaError_t set_function_attribute(const void* kernel, cudaFuncAttribute attr, int value);
cudaError_t occupancy_blocks_per_sm(int* blocks, int block_size, size_t dynamic_smem);
cudaError_t occupancy_best_block_size(int* min_grid, int* block_size, size_t dynamic_smem, int block_size_limit);
}  // namespace cudajudge::detail

template <class T>
inline cudaError_t cudaFuncSetAttribute(T* kernel, cudaFuncAttribute attr, int value) {
    return cudajudge::detail::set_function_attribute(reinterpret_cast<const void*>(kernel), attr, value);
}
template <class T>
inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, T, int block_size, size_t dynamic_smem) {
    return cudajudge::detail::occupancy_blocks_per_sm(blocks, block_size, dynamic_smem);
}
template <class T>
inline cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid, int* block_size, T, size_t dynamic_smem = 0,
                                                      int block_size_limit = 0) {
    return cudajudge::detail::occupancy_best_block_size(min_grid, block_size, dynamic_smem, block_size_limit);
}
