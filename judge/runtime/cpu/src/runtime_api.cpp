// The CUDA runtime API subset, on host memory.
#include <algorithm>
#include <cstring>

#include "device_access.h"
#include "device_limits.h"
#include "device_memory.h"
#include "error_state.h"
#include "kernel_attributes.h"
#include "outcome.h"
#include "runtime.h"
#include "settings.h"

using namespace cudajudge::detail;

namespace {

// A copy or fill that runs past the end of a cudaMalloc buffer is refused and recorded. Line 0: a copy with
// no line of its own (Thrust's element access, `v[i]`), named by the buffer it touches.
cudaError_t check_range(const char* api, const void* ptr, size_t count, int line) {
    std::string overrun = device_memory().overrun(ptr, count);
    if (overrun.empty()) return cudaSuccess;
    const std::string where = line > 0 ? " on line " + std::to_string(line) : "";
    outcome().record_error(Verdict::runtime_error, "out_of_bounds", std::string(api) + where + " touches " + overrun);
    return note_error(cudaErrorInvalidValue);
}

cudaError_t copy(void* dst, const void* src, size_t count, cudaMemcpyKind kind, const char* api, int line) {
    if (cudaError_t sticky = sticky_error()) return sticky;
    if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) return note_error(cudaErrorInvalidMemcpyDirection);
    if (count == 0) return cudaSuccess;
    if (!dst || !src) return note_error(cudaErrorInvalidValue);
    if (cudaError_t error = check_range(api, dst, count, line)) return error;
    if (cudaError_t error = check_range(api, src, count, line)) return error;
    const DeviceAccess access;
    std::memmove(dst, src, count);
    return cudaSuccess;
}

cudaError_t fill(void* ptr, int value, size_t count, const char* api, int line) {
    if (cudaError_t sticky = sticky_error()) return sticky;
    if (count == 0) return cudaSuccess;
    if (!ptr) return note_error(cudaErrorInvalidValue);
    if (cudaError_t error = check_range(api, ptr, count, line)) return error;
    const DeviceAccess access;
    std::memset(ptr, value, count);
    return cudaSuccess;
}

cudaError_t valid_device(int device) { return device == 0 ? cudaSuccess : note_error(cudaErrorInvalidDevice); }

}  // namespace

// ---- errors ----------------------------------------------------------------------------------

cudaError_t cudaGetLastError() { return take_last_error(); }
cudaError_t cudaPeekAtLastError() { return peek_last_error(); }

const char* cudaGetErrorName(cudaError_t error) {
    switch (error) {
        case cudaSuccess: return "cudaSuccess";
        case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
        case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
        case cudaErrorInitializationError: return "cudaErrorInitializationError";
        case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
        case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
        case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
        case cudaErrorInvalidDeviceFunction: return "cudaErrorInvalidDeviceFunction";
        case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
        case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
        case cudaErrorNotReady: return "cudaErrorNotReady";
        case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
        case cudaErrorLaunchOutOfResources: return "cudaErrorLaunchOutOfResources";
        case cudaErrorLaunchTimeout: return "cudaErrorLaunchTimeout";
        case cudaErrorAssert: return "cudaErrorAssert";
        case cudaErrorIllegalInstruction: return "cudaErrorIllegalInstruction";
        case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
        case cudaErrorNotSupported: return "cudaErrorNotSupported";
        case cudaErrorUnknown: return "cudaErrorUnknown";
    }
    return "cudaErrorUnknown";
}

const char* cudaGetErrorString(cudaError_t error) {
    switch (error) {
        case cudaSuccess: return "no error";
        case cudaErrorInvalidValue: return "invalid argument";
        case cudaErrorMemoryAllocation: return "out of memory";
        case cudaErrorInitializationError: return "initialization error";
        case cudaErrorInvalidConfiguration: return "invalid configuration argument";
        case cudaErrorInvalidDevicePointer: return "invalid device pointer";
        case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
        case cudaErrorInvalidDeviceFunction: return "invalid device function";
        case cudaErrorInvalidDevice: return "invalid device ordinal";
        case cudaErrorInvalidResourceHandle: return "invalid resource handle";
        case cudaErrorNotReady: return "device not ready";
        case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
        case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
        case cudaErrorLaunchTimeout: return "the launch timed out and was terminated";
        case cudaErrorAssert: return "device-side assert triggered";
        case cudaErrorIllegalInstruction: return "an illegal instruction was encountered";
        case cudaErrorLaunchFailure: return "unspecified launch failure";
        case cudaErrorNotSupported: return "operation not supported";
        case cudaErrorUnknown: return "unknown error";
    }
    return "unknown error";
}

// ---- memory ----------------------------------------------------------------------------------

cudaError_t cudaMalloc(void** ptr, size_t size, int line) {
    if (cudaError_t sticky = sticky_error()) return sticky;
    const DeviceAccess access;   // the fresh buffer's bytes and guards are written
    return note_error(device_memory().allocate(ptr, size, line));
}

cudaError_t cudaFree(void* ptr, int line) {
    if (cudaError_t sticky = sticky_error()) return sticky;
    const DeviceAccess access;   // the buffer's guards are checked
    return note_error(device_memory().release(ptr, line));
}

cudaError_t cudaMemset(void* ptr, int value, size_t count, int line) { return fill(ptr, value, count, "cudaMemset", line); }

cudaError_t cudaMemsetAsync(void* ptr, int value, size_t count, cudaStream_t, int line) {
    return fill(ptr, value, count, "cudaMemsetAsync", line);
}

cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind, int line) {
    return copy(dst, src, count, kind, "cudaMemcpy", line);
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind, cudaStream_t, int line) {
    return copy(dst, src, count, kind, "cudaMemcpyAsync", line);
}

// ---- synchronization: launches run to completion before they return ----------------------------

cudaError_t cudaDeviceSynchronize() { return sticky_error(); }
cudaError_t cudaStreamSynchronize(cudaStream_t) { return sticky_error(); }

// ---- device ------------------------------------------------------------------------------------

cudaError_t cudaGetDevice(int* device) {
    if (!device) return note_error(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
    if (!prop) return note_error(cudaErrorInvalidValue);
    if (cudaError_t error = valid_device(device)) return error;
    *prop = cudaDeviceProp{};
    std::strncpy(prop->name, "cudajudge CPU emulation (sm_90-class)", sizeof prop->name - 1);
    prop->totalGlobalMem = settings().arena_bytes;
    prop->sharedMemPerBlock = limits::shared_per_block;
    prop->regsPerBlock = limits::registers_per_block;
    prop->warpSize = limits::warp_size;
    prop->memPitch = size_t{1} << 31;
    prop->maxThreadsPerBlock = limits::max_threads_per_block;
    for (int i = 0; i < 3; ++i) {
        prop->maxThreadsDim[i] = static_cast<int>(limits::max_block_dim[i]);
        prop->maxGridSize[i] = static_cast<int>(limits::max_grid_dim[i]);
    }
    prop->clockRate = limits::clock_khz;
    prop->totalConstMem = limits::constant_memory;
    prop->major = limits::compute_major;
    prop->minor = limits::compute_minor;
    prop->textureAlignment = 512;
    prop->deviceOverlap = 1;
    prop->multiProcessorCount = limits::multiprocessors;
    prop->concurrentKernels = 1;
    prop->memoryClockRate = limits::memory_clock_khz;
    prop->memoryBusWidth = limits::memory_bus_width;
    prop->l2CacheSize = limits::l2_cache_bytes;
    prop->maxThreadsPerMultiProcessor = limits::max_threads_per_multiprocessor;
    prop->sharedMemPerMultiprocessor = static_cast<int>(limits::shared_per_multiprocessor);
    prop->regsPerMultiprocessor = limits::registers_per_multiprocessor;
    prop->cooperativeLaunch = 1;
    prop->sharedMemPerBlockOptin = limits::shared_per_block_optin;
    prop->reservedSharedMemPerBlock = limits::shared_reserved_per_block;
    prop->maxBlocksPerMultiProcessor = limits::max_blocks_per_multiprocessor;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
    if (!value) return note_error(cudaErrorInvalidValue);
    if (cudaError_t error = valid_device(device)) return error;
    switch (attr) {
        case cudaDevAttrMaxThreadsPerBlock: *value = limits::max_threads_per_block; break;
        case cudaDevAttrMaxBlockDimX: *value = static_cast<int>(limits::max_block_dim[0]); break;
        case cudaDevAttrMaxBlockDimY: *value = static_cast<int>(limits::max_block_dim[1]); break;
        case cudaDevAttrMaxBlockDimZ: *value = static_cast<int>(limits::max_block_dim[2]); break;
        case cudaDevAttrMaxGridDimX: *value = static_cast<int>(limits::max_grid_dim[0]); break;
        case cudaDevAttrMaxGridDimY: *value = static_cast<int>(limits::max_grid_dim[1]); break;
        case cudaDevAttrMaxGridDimZ: *value = static_cast<int>(limits::max_grid_dim[2]); break;
        case cudaDevAttrMaxSharedMemoryPerBlock: *value = static_cast<int>(limits::shared_per_block); break;
        case cudaDevAttrTotalConstantMemory: *value = static_cast<int>(limits::constant_memory); break;
        case cudaDevAttrWarpSize: *value = limits::warp_size; break;
        case cudaDevAttrMaxRegistersPerBlock: *value = limits::registers_per_block; break;
        case cudaDevAttrClockRate: *value = limits::clock_khz; break;
        case cudaDevAttrMultiProcessorCount: *value = limits::multiprocessors; break;
        case cudaDevAttrMemoryClockRate: *value = limits::memory_clock_khz; break;
        case cudaDevAttrGlobalMemoryBusWidth: *value = limits::memory_bus_width; break;
        case cudaDevAttrL2CacheSize: *value = limits::l2_cache_bytes; break;
        case cudaDevAttrMaxThreadsPerMultiProcessor: *value = limits::max_threads_per_multiprocessor; break;
        case cudaDevAttrComputeCapabilityMajor: *value = limits::compute_major; break;
        case cudaDevAttrComputeCapabilityMinor: *value = limits::compute_minor; break;
        case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = static_cast<int>(limits::shared_per_multiprocessor); break;
        case cudaDevAttrMaxRegistersPerMultiprocessor: *value = limits::registers_per_multiprocessor; break;
        case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = static_cast<int>(limits::shared_per_block_optin); break;
        case cudaDevAttrMaxBlocksPerMultiprocessor: *value = limits::max_blocks_per_multiprocessor; break;
        default: return note_error(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}

// ---- kernels -----------------------------------------------------------------------------------

namespace cudajudge::detail {

cudaError_t set_function_attribute(const void* kernel, cudaFuncAttribute attr, int value) {
    if (!kernel) return note_error(cudaErrorInvalidDeviceFunction);
    switch (attr) {
        case cudaFuncAttributeMaxDynamicSharedMemorySize:
            if (value < 0 || static_cast<size_t>(value) > limits::shared_per_block_optin) return note_error(cudaErrorInvalidValue);
            set_max_dynamic_shared(kernel, static_cast<size_t>(value));
            return cudaSuccess;
        case cudaFuncAttributePreferredSharedMemoryCarveout:
            return (value >= -1 && value <= 100) ? cudaSuccess : note_error(cudaErrorInvalidValue);
    }
    return note_error(cudaErrorInvalidValue);
}

// Resident blocks per multiprocessor, limited by threads, blocks, registers (at an assumed
// 32 per thread) and shared memory, as the occupancy calculator computes it.
cudaError_t occupancy_blocks_per_sm(int* blocks, int block_size, size_t dynamic_smem) {
    if (!blocks || block_size <= 0 || block_size > limits::max_threads_per_block) return note_error(cudaErrorInvalidValue);
    const int threads = (block_size + limits::warp_size - 1) / limits::warp_size * limits::warp_size;
    int by_threads = limits::max_threads_per_multiprocessor / threads;
    int by_registers = limits::registers_per_multiprocessor / (limits::assumed_registers_per_thread * threads);
    int by_shared = static_cast<int>(limits::shared_per_multiprocessor / (dynamic_smem + limits::shared_reserved_per_block));
    *blocks = std::min({by_threads, by_registers, by_shared, limits::max_blocks_per_multiprocessor});
    return cudaSuccess;
}

cudaError_t occupancy_best_block_size(int* min_grid, int* block_size, size_t dynamic_smem, int block_size_limit) {
    if (!min_grid || !block_size) return note_error(cudaErrorInvalidValue);
    const int limit = block_size_limit > 0 ? std::min(block_size_limit, limits::max_threads_per_block) : limits::max_threads_per_block;
    int best_size = 0, best_blocks = 0, best_threads = -1;
    for (int size = limit / limits::warp_size * limits::warp_size; size >= limits::warp_size; size -= limits::warp_size) {
        int blocks = 0;
        occupancy_blocks_per_sm(&blocks, size, dynamic_smem);
        if (blocks * size > best_threads) {
            best_threads = blocks * size;
            best_size = size;
            best_blocks = blocks;
        }
    }
    if (best_size == 0) {
        best_size = std::max(1, limit);
        occupancy_blocks_per_sm(&best_blocks, best_size, dynamic_smem);
    }
    *block_size = best_size;
    *min_grid = best_blocks * limits::multiprocessors;
    return cudaSuccess;
}

}  // namespace cudajudge::detail
