// The CUDA runtime API subset a submission may call, served from host memory.
#pragma once

enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorInvalidDeviceFunction = 98,
    cudaErrorInvalidDevice = 101,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchOutOfResources = 701,
    cudaErrorLaunchTimeout = 702,
    cudaErrorAssert = 710,
    cudaErrorIllegalInstruction = 715,
    cudaErrorLaunchFailure = 719,
    cudaErrorNotSupported = 801,
    cudaErrorUnknown = 999,
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4,
};

enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout = 9,
};

enum cudaDeviceAttr {
    cudaDevAttrMaxThreadsPerBlock = 1,
    cudaDevAttrMaxBlockDimX = 2,
    cudaDevAttrMaxBlockDimY = 3,
    cudaDevAttrMaxBlockDimZ = 4,
    cudaDevAttrMaxGridDimX = 5,
    cudaDevAttrMaxGridDimY = 6,
    cudaDevAttrMaxGridDimZ = 7,
    cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrTotalConstantMemory = 9,
    cudaDevAttrWarpSize = 10,
    cudaDevAttrMaxRegistersPerBlock = 12,
    cudaDevAttrClockRate = 13,
    cudaDevAttrMultiProcessorCount = 16,
    cudaDevAttrMemoryClockRate = 36,
    cudaDevAttrGlobalMemoryBusWidth = 37,
    cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39,
    cudaDevAttrComputeCapabilityMajor = 75,
    cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
    cudaDevAttrMaxRegistersPerMultiprocessor = 82,
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
    cudaDevAttrMaxBlocksPerMultiprocessor = 106,
};

struct cudaDeviceProp {
    char name[256];
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int clockRate;
    size_t totalConstMem;
    int major;
    int minor;
    size_t textureAlignment;
    int deviceOverlap;
    int multiProcessorCount;
    int integrated;
    int concurrentKernels;
    int memoryClockRate;
    int memoryBusWidth;
    int l2CacheSize;
    int persistingL2CacheMaxSize;
    int maxThreadsPerMultiProcessor;
    int sharedMemPerMultiprocessor;
    int regsPerMultiprocessor;
    int managedMemory;
    int cooperativeLaunch;
    size_t sharedMemPerBlockOptin;
    size_t reservedSharedMemPerBlock;
    int maxBlocksPerMultiProcessor;
};

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
