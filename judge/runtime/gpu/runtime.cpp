// The GPU side of the judge's CUDA runtime (see cuda_runtime.h and harness_abi.h).
//
// It talks to the CUDA driver API, loaded with dlopen at run time, so a built submission links
// and loads on a machine without a GPU. It keeps the state of one submission in one process:
// the arena cudaMalloc carves from, the module with the user's kernels, the launch record and
// the first error, phrased for the learner.
#include <dlfcn.h>

#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "cuda_runtime.h"
#include "harness_abi.h"

// The line-recording macros are for user code; here the functions are defined by name.
#undef cudaMalloc
#undef cudaFree
#undef cudaMemcpy
#undef cudaMemcpyAsync
#undef cudaMemset
#undef cudaMemsetAsync
#undef cudaDeviceSynchronize
#undef cudaStreamSynchronize

namespace {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUstream = CUstream_st*;
using CUevent = struct CUevent_st*;

constexpr int kFuncMaxThreadsPerBlock = 0;        // CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK
constexpr int kFuncStaticSharedBytes = 1;         // CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES
constexpr size_t kDefaultDynamicSharedLimit = 48 * 1024;
constexpr size_t kArenaAlignment = 256;

// name, exported symbol, signature
#define CUDAJUDGE_DRIVER_FUNCTIONS(X)                                                                          \
    X(cuInit, "cuInit", CUresult (*)(unsigned))                                                                \
    X(cuDeviceGet, "cuDeviceGet", CUresult (*)(CUdevice*, int))                                                \
    X(cuDeviceGetAttribute, "cuDeviceGetAttribute", CUresult (*)(int*, int, CUdevice))                         \
    X(cuDeviceGetName, "cuDeviceGetName", CUresult (*)(char*, int, CUdevice))                                  \
    X(cuDeviceTotalMem, "cuDeviceTotalMem_v2", CUresult (*)(size_t*, CUdevice))                                \
    X(cuCtxGetCurrent, "cuCtxGetCurrent", CUresult (*)(CUcontext*))                                            \
    X(cuCtxSetCurrent, "cuCtxSetCurrent", CUresult (*)(CUcontext))                                             \
    X(cuCtxGetDevice, "cuCtxGetDevice", CUresult (*)(CUdevice*))                                               \
    X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", CUresult (*)(CUcontext*, CUdevice))                \
    X(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", CUresult (*)(CUdevice))                       \
    X(cuModuleLoadData, "cuModuleLoadData", CUresult (*)(CUmodule*, const void*))                              \
    X(cuModuleUnload, "cuModuleUnload", CUresult (*)(CUmodule))                                                \
    X(cuModuleGetFunction, "cuModuleGetFunction", CUresult (*)(CUfunction*, CUmodule, const char*))            \
    X(cuFuncGetAttribute, "cuFuncGetAttribute", CUresult (*)(int*, int, CUfunction))                           \
    X(cuFuncSetAttribute, "cuFuncSetAttribute", CUresult (*)(CUfunction, int, int))                            \
    X(cuLaunchKernel, "cuLaunchKernel",                                                                        \
      CUresult (*)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream, \
                   void**, void**))                                                                            \
    X(cuMemcpyAsync, "cuMemcpyAsync", CUresult (*)(CUdeviceptr, CUdeviceptr, size_t, CUstream))                \
    X(cuMemsetD8Async, "cuMemsetD8Async", CUresult (*)(CUdeviceptr, unsigned char, size_t, CUstream))          \
    X(cuStreamSynchronize, "cuStreamSynchronize", CUresult (*)(CUstream))                                      \
    X(cuEventCreate, "cuEventCreate", CUresult (*)(CUevent*, unsigned))                                        \
    X(cuEventRecord, "cuEventRecord", CUresult (*)(CUevent, CUstream))                                         \
    X(cuEventSynchronize, "cuEventSynchronize", CUresult (*)(CUevent))                                         \
    X(cuEventElapsedTime, "cuEventElapsedTime", CUresult (*)(float*, CUevent, CUevent))                        \
    X(cuEventDestroy, "cuEventDestroy_v2", CUresult (*)(CUevent))                                              \
    X(cuGetErrorString, "cuGetErrorString", CUresult (*)(CUresult, const char**))                              \
    X(cuGetErrorName, "cuGetErrorName", CUresult (*)(CUresult, const char**))                                  \
    X(cuOccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor",              \
      CUresult (*)(int*, CUfunction, int, size_t))                                                             \
    X(cuOccupancyMaxPotentialBlockSize, "cuOccupancyMaxPotentialBlockSize",                                    \
      CUresult (*)(int*, int*, CUfunction, size_t (*)(int), size_t, int))

template <class T>
using Entry = T;   // lets a function-pointer type be written before the name

struct Driver {
#define CUDAJUDGE_DECLARE(name, symbol, type) Entry<type> name = nullptr;
    CUDAJUDGE_DRIVER_FUNCTIONS(CUDAJUDGE_DECLARE)
#undef CUDAJUDGE_DECLARE
    void* handle = nullptr;

    // Empty on success, else what is missing.
    std::string load() {
        if (handle) return "";
        handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!handle) return std::string("the CUDA driver (libcuda.so.1) could not be loaded: ") + dlerror();
#define CUDAJUDGE_RESOLVE(name, symbol, type)                                     \
    name = reinterpret_cast<Entry<type>>(dlsym(handle, symbol));                  \
    if (!name) return std::string("the CUDA driver lacks ") + symbol;
        CUDAJUDGE_DRIVER_FUNCTIONS(CUDAJUDGE_RESOLVE)
#undef CUDAJUDGE_RESOLVE
        return "";
    }
};

struct Kernel {
    const void* address;
    const char* name;
    const char* lowered;
    CUfunction function = nullptr;
    int max_threads = 1024;               // what this kernel can be launched with (launch bounds, registers)
    int static_shared = 0;
    int dynamic_shared_limit = kDefaultDynamicSharedLimit;   // raised by cudaFuncSetAttribute
};

struct Pending {
    bool set = false;
    const void* kernel = nullptr;
    dim3 grid, block;
    size_t shared = 0;
    int line = 0;
};

struct Limits {
    int max_threads_per_block = 1024;
    int max_block[3] = {1024, 1024, 64};
    int max_grid[3] = {2147483647, 65535, 65535};
    int max_shared_optin = 48 * 1024;
};

struct State {
    Driver driver;
    bool ready = false;
    bool retained_primary = false;
    CUcontext context = nullptr;          // the judge's: current on every thread that calls the runtime
    CUdevice device = 0;
    CUmodule module = nullptr;
    CUstream stream = nullptr;
    Limits limits;
    std::vector<Kernel> kernels;

    CUdeviceptr arena = 0;
    size_t arena_bytes = 0;
    std::map<size_t, size_t> blocks;      // offset -> size of each live allocation
    size_t in_use = 0;
    bool memory_exceeded = false;

    Pending pending;
    int call_line = 0;
    bool checked_launches = false;
    bool profiled_launches = false;
    std::vector<cudajudge_launch_info> launches;
    std::vector<std::pair<CUevent, CUevent>> launch_events;   // per record: start and end, when profiled
    cudajudge_algorithm_handler algorithm_handler = nullptr;
    long long launch_total = 0;

    cudaError_t last_error = cudaSuccess;   // what cudaGetLastError reports
    cudaError_t first_error = cudaSuccess;  // what the harness reports
    std::string first_message;
};

State& state() {
    static State s;
    return s;
}

std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char* fmt, ...) {
    char buffer[1024];
    va_list args;
    va_start(args, fmt);
    vsnprintf(buffer, sizeof buffer, fmt, args);
    va_end(args);
    return buffer;
}

cudaError_t fail(cudaError_t code, const std::string& message) {
    State& s = state();
    s.last_error = code;
    if (s.first_error == cudaSuccess) {
        s.first_error = code;
        s.first_message = message;
    }
    return code;
}

std::string driver_message(CUresult result) {
    State& s = state();
    const char* name = nullptr;
    const char* text = nullptr;
    if (s.driver.cuGetErrorName) s.driver.cuGetErrorName(result, &name);
    if (s.driver.cuGetErrorString) s.driver.cuGetErrorString(result, &text);
    return format("%s (%s)", text ? text : "unknown error", name ? name : "CUDA_ERROR_UNKNOWN");
}

std::string dims(const unsigned int d[3]) {
    if (d[1] == 1 && d[2] == 1) return format("%u", d[0]);
    return format("(%u, %u, %u)", d[0], d[1], d[2]);
}

std::string describe(const cudajudge_launch_info& launch) {
    std::string shared = launch.shared_bytes ? format(", %zu", launch.shared_bytes) : "";
    return format("%s<<<%s, %s%s>>> at line %d", launch.kernel, dims(launch.grid).c_str(), dims(launch.block).c_str(),
                  shared.c_str(), launch.line);
}

std::string after_last_launch() {
    State& s = state();
    if (s.launches.empty()) return "";
    return "; the most recent kernel launch was " + describe(s.launches.back());
}

// A driver failure outside a launch: asynchronous faults surface here.
cudaError_t driver_failure(CUresult result, const char* call) {
    std::string where = state().call_line ? format(" (%s at line %d)", call, state().call_line) : format(" (%s)", call);
    return fail(static_cast<cudaError_t>(result), driver_message(result) + where + after_last_launch());
}

// The CUDA runtime works in its context on whatever host thread calls it; the driver only on threads
// where the context is current: a thread the submission starts gets it at its first call.
void on_this_thread() {
    State& s = state();
    CUcontext current = nullptr;
    if (s.context && s.driver.cuCtxGetCurrent(&current) == 0 && current != s.context)
        s.driver.cuCtxSetCurrent(s.context);
}

bool ready(const char* call) {
    on_this_thread();
    if (state().ready) return true;
    fail(cudaErrorInitializationError, format("%s was called before the judge initialized the device", call));
    return false;
}

// The kernel table the build linked in; the driver handles are filled in by cudajudge_init.
std::vector<Kernel>& kernels() {
    State& s = state();
    if (s.kernels.empty()) {
        for (int i = 0; i < cudajudge_kernel_count; ++i)
            s.kernels.push_back(Kernel{cudajudge_kernel_addresses[i], cudajudge_kernel_names[i], cudajudge_kernel_lowered[i]});
        for (int i = 0; i < cudajudge_judge_kernel_count; ++i)
            s.kernels.push_back(Kernel{cudajudge_judge_kernel_addresses[i], cudajudge_judge_kernel_names[i],
                                       cudajudge_judge_kernel_lowered[i]});
    }
    return s.kernels;
}

Kernel* find_kernel(const void* address) {
    for (Kernel& k : kernels())
        if (k.address == address) return &k;
    return nullptr;
}

std::string check_configuration(const Kernel& k, const cudajudge_launch_info& launch) {
    const Limits& limits = state().limits;
    const char* axis = "xyz";
    unsigned long long threads = 1;
    for (int i = 0; i < 3; ++i) {
        if (launch.grid[i] == 0 || launch.block[i] == 0)
            return format("%s dimension %c is 0", launch.grid[i] == 0 ? "grid" : "block", axis[i]);
        if (launch.block[i] > static_cast<unsigned>(limits.max_block[i]))
            return format("block dimension %c is %u; the maximum is %d", axis[i], launch.block[i], limits.max_block[i]);
        if (launch.grid[i] > static_cast<unsigned>(limits.max_grid[i]))
            return format("grid dimension %c is %u; the maximum is %d", axis[i], launch.grid[i], limits.max_grid[i]);
        threads *= launch.block[i];
    }
    if (threads > static_cast<unsigned long long>(limits.max_threads_per_block))
        return format("a block of %llu threads is more than the device allows (%d)", threads, limits.max_threads_per_block);
    if (threads > static_cast<unsigned long long>(k.max_threads))
        return format("a block of %llu threads is more than this kernel can run with (%d, set by __launch_bounds__ "
                      "or its register use)", threads, k.max_threads);
    if (launch.shared_bytes > static_cast<size_t>(k.dynamic_shared_limit)) {
        if (launch.shared_bytes <= static_cast<size_t>(limits.max_shared_optin - k.static_shared))
            return format("%zu bytes of dynamic shared memory need cudaFuncSetAttribute(%s, "
                          "cudaFuncAttributeMaxDynamicSharedMemorySize, %zu) first (the default limit is %d bytes)",
                          launch.shared_bytes, k.name, launch.shared_bytes, k.dynamic_shared_limit);
        return format("%zu bytes of dynamic shared memory plus %d static are more than the device allows per block (%d)",
                      launch.shared_bytes, k.static_shared, limits.max_shared_optin);
    }
    return "";
}

CUstream launch_stream() {
    on_this_thread();
    return state().stream;
}

cudaError_t synchronize(const char* call) {
    if (!ready(call)) return cudaErrorInitializationError;
    CUresult r = state().driver.cuStreamSynchronize(launch_stream());
    return r ? driver_failure(r, call) : cudaSuccess;
}

cudaError_t copy(void* dst, const void* src, size_t count, cudaMemcpyKind kind, bool wait, const char* call) {
    if (!ready(call)) return cudaErrorInitializationError;
    if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
        return fail(cudaErrorInvalidMemcpyDirection, format("%s at line %d: %d is not a cudaMemcpyKind", call,
                                                            state().call_line, static_cast<int>(kind)));
    if (count == 0) return cudaSuccess;
    CUresult r = state().driver.cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst), reinterpret_cast<CUdeviceptr>(src),
                                             count, launch_stream());
    if (r) return driver_failure(r, call);
    return wait ? synchronize(call) : cudaSuccess;
}

cudaError_t set(void* ptr, int value, size_t count, bool wait, const char* call) {
    if (!ready(call)) return cudaErrorInitializationError;
    if (count == 0) return cudaSuccess;
    CUresult r = state().driver.cuMemsetD8Async(reinterpret_cast<CUdeviceptr>(ptr), static_cast<unsigned char>(value),
                                               count, launch_stream());
    if (r) return driver_failure(r, call);
    return wait ? synchronize(call) : cudaSuccess;
}

struct ErrorText {
    cudaError_t code;
    const char* name;
    const char* text;
};

const ErrorText kErrorTexts[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
    {cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered"},
    {cudaErrorMisalignedAddress, "cudaErrorMisalignedAddress", "misaligned address"},
    {cudaErrorIllegalInstruction, "cudaErrorIllegalInstruction", "an illegal instruction was encountered"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
};

const ErrorText* error_text(cudaError_t code) {
    for (const ErrorText& e : kErrorTexts)
        if (e.code == code) return &e;
    return nullptr;
}

}  // namespace

// --- launches -----------------------------------------------------------------------------------

extern "C" void cudajudge_set_pending_launch(const void* kernel, dim3 grid, dim3 block, size_t smem,
                                             cudaStream_t, int line) {
    state().pending = Pending{true, kernel, grid, block, smem, line};
}

extern "C" void cudajudge_set_call_line(int line) { state().call_line = line; }

// Keeps a record of a launch (up to CUDAJUDGE_MAX_LAUNCH_RECORDS); null when it is only counted.
cudajudge_launch_info* keep_record(const cudajudge_launch_info& launch) {
    State& s = state();
    ++s.launch_total;
    if (s.launches.size() >= CUDAJUDGE_MAX_LAUNCH_RECORDS) return nullptr;
    s.launches.push_back(launch);
    s.launch_events.emplace_back(nullptr, nullptr);
    return &s.launches.back();
}

// In a profiling pass: an event before the work on the launch stream, kept with the last record;
// the returned end event is recorded after the work.
CUevent start_profile(const cudajudge_launch_info* record) {
    State& s = state();
    if (!s.profiled_launches || !record) return nullptr;
    CUevent start = nullptr, end = nullptr;
    if (s.driver.cuEventCreate(&start, 0) != 0 || s.driver.cuEventCreate(&end, 0) != 0) {
        if (start) s.driver.cuEventDestroy(start);
        return nullptr;
    }
    s.driver.cuEventRecord(start, launch_stream());
    s.launch_events.back() = {start, end};
    return end;
}

extern "C" void cudajudge_launch_pending(void** args, size_t) {
    State& s = state();
    Pending p = s.pending;
    s.pending.set = false;
    if (!p.set) {
        fail(cudaErrorInvalidConfiguration, "a __global__ function was called without a <<<grid, block>>> configuration");
        return;
    }
    Kernel* k = find_kernel(p.kernel);
    cudajudge_launch_info launch{k ? k->name : "(unknown kernel)", k ? k->lowered : "",
                                 {p.grid.x, p.grid.y, p.grid.z}, {p.block.x, p.block.y, p.block.z},
                                 p.shared, p.line, cudaSuccess, -1.0f};
    cudajudge_launch_info* record = keep_record(launch);
    auto refuse = [&](cudaError_t code, const std::string& why) {
        if (record) record->status = code;
        fail(code, "launch of " + describe(launch) + " was not made: " + why);
    };
    if (!s.ready) return refuse(cudaErrorInitializationError, "the device is not initialized");
    if (!k) return refuse(cudaErrorInvalidDeviceFunction, "the judge compiled no device kernel at that address "
                                                          "(launch kernels by name)");
    std::string problem = check_configuration(*k, launch);
    if (!problem.empty()) return refuse(cudaErrorInvalidConfiguration, problem);
    CUevent end = start_profile(record);
    CUresult r = s.driver.cuLaunchKernel(k->function, p.grid.x, p.grid.y, p.grid.z, p.block.x, p.block.y, p.block.z,
                                         static_cast<unsigned>(p.shared), launch_stream(), args, nullptr);
    if (end) s.driver.cuEventRecord(end, launch_stream());
    if (r) return refuse(static_cast<cudaError_t>(r), driver_message(r));
    if (s.checked_launches) {
        r = s.driver.cuStreamSynchronize(launch_stream());
        if (r) {
            if (record) record->status = r;
            fail(static_cast<cudaError_t>(r), driver_message(r) + " in " + describe(launch));
        }
    }
}

// A device-wide algorithm (CUB's Device*, Thrust's): run by the harness's handler on the launch
// stream, recorded under the algorithm's name like a launch.
extern "C" int cudajudge_device_algorithm(const cudajudge_algorithm_call* call) {
    State& s = state();
    cudajudge_launch_info launch{call->name, "", {0, 0, 0}, {0, 0, 0}, 0, call->line, cudaSuccess, -1.0f};
    cudajudge_launch_info* record = keep_record(launch);
    auto failed = [&](cudaError_t code, const std::string& why) {
        if (record) record->status = code;
        return fail(code, why);
    };
    if (call->refusal) return failed(cudaErrorInvalidValue, call->refusal);
    if (!s.ready || !s.algorithm_handler)
        return failed(cudaErrorNotSupported, std::string(call->name) + " needs the judge's harness, which is not attached");
    CUevent end = start_profile(record);
    char message[1024] = "";
    int code = s.algorithm_handler(call, message, sizeof message);
    if (end) s.driver.cuEventRecord(end, launch_stream());
    if (code) return failed(static_cast<cudaError_t>(code), message);
    if (s.checked_launches) {
        CUresult r = s.driver.cuStreamSynchronize(launch_stream());
        if (r) return failed(static_cast<cudaError_t>(r), driver_message(r) + " in " + call->name + " on line " +
                                                            std::to_string(call->line));
    }
    return cudaSuccess;
}

// --- the runtime subset ---------------------------------------------------------------------

extern "C" cudaError_t cudaMalloc(void** devPtr, size_t size) {
    State& s = state();
    if (!ready("cudaMalloc")) return cudaErrorInitializationError;
    if (!devPtr) return fail(cudaErrorInvalidValue, format("cudaMalloc at line %d: the pointer to store the address in is null", s.call_line));
    *devPtr = nullptr;
    if (size == 0) return cudaSuccess;
    size_t need = (size + kArenaAlignment - 1) / kArenaAlignment * kArenaAlignment;
    size_t offset = 0;
    for (const auto& block : s.blocks) {
        if (block.first >= offset && block.first - offset >= need) break;
        offset = (block.first + block.second + kArenaAlignment - 1) / kArenaAlignment * kArenaAlignment;
    }
    if (need < size || offset > s.arena_bytes || s.arena_bytes - offset < need) {
        s.memory_exceeded = true;
        return fail(cudaErrorMemoryAllocation,
                    format("cudaMalloc of %zu bytes at line %d does not fit: solve() may use %zu bytes of device memory "
                           "and %zu are allocated", size, s.call_line, s.arena_bytes, s.in_use));
    }
    s.blocks[offset] = size;
    s.in_use += size;
    *devPtr = reinterpret_cast<void*>(s.arena + offset);
    return cudaSuccess;
}

extern "C" cudaError_t cudaFree(void* devPtr) {
    State& s = state();
    if (!devPtr) return cudaSuccess;
    CUdeviceptr address = reinterpret_cast<CUdeviceptr>(devPtr);
    auto block = address >= s.arena ? s.blocks.find(address - s.arena) : s.blocks.end();
    if (block == s.blocks.end())
        return fail(cudaErrorInvalidValue, format("cudaFree at line %d of a pointer cudaMalloc did not return "
                                                  "(or that was already freed)", s.call_line));
    s.in_use -= block->second;
    s.blocks.erase(block);
    return cudaSuccess;
}

extern "C" cudaError_t cudaMemset(void* devPtr, int value, size_t count) { return set(devPtr, value, count, true, "cudaMemset"); }

extern "C" cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t) {
    return set(devPtr, value, count, false, "cudaMemsetAsync");
}

extern "C" cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
    return copy(dst, src, count, kind, true, "cudaMemcpy");
}

extern "C" cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind, cudaStream_t) {
    return copy(dst, src, count, kind, false, "cudaMemcpyAsync");
}

extern "C" cudaError_t cudaDeviceSynchronize(void) { return synchronize("cudaDeviceSynchronize"); }

extern "C" cudaError_t cudaStreamSynchronize(cudaStream_t) { return synchronize("cudaStreamSynchronize"); }

extern "C" cudaError_t cudaGetLastError(void) {
    cudaError_t e = state().last_error;
    state().last_error = cudaSuccess;
    return e;
}

extern "C" cudaError_t cudaPeekAtLastError(void) { return state().last_error; }

extern "C" const char* cudaGetErrorString(cudaError_t error) {
    if (const ErrorText* e = error_text(error)) return e->text;
    const char* text = nullptr;
    if (state().driver.cuGetErrorString && state().driver.cuGetErrorString(error, &text) == 0 && text) return text;
    return "unrecognized error code";
}

extern "C" const char* cudaGetErrorName(cudaError_t error) {
    if (const ErrorText* e = error_text(error)) return e->name;
    const char* name = nullptr;
    if (state().driver.cuGetErrorName && state().driver.cuGetErrorName(error, &name) == 0 && name) return name;
    return "cudaErrorUnknown";
}

extern "C" cudaError_t cudaGetDevice(int* device) {
    if (!device) return fail(cudaErrorInvalidValue, "cudaGetDevice: null pointer");
    *device = 0;
    return cudaSuccess;
}

extern "C" cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
    State& s = state();
    if (!ready("cudaDeviceGetAttribute")) return cudaErrorInitializationError;
    if (!value) return fail(cudaErrorInvalidValue, "cudaDeviceGetAttribute: null pointer");
    if (device != 0) return fail(cudaErrorInvalidDevice, format("cudaDeviceGetAttribute: device %d does not exist; the judge runs on device 0", device));
    CUresult r = s.driver.cuDeviceGetAttribute(value, attr, s.device);
    return r ? fail(cudaErrorInvalidValue, format("cudaDeviceGetAttribute: attribute %d: %s", static_cast<int>(attr),
                                                   driver_message(r).c_str()))
             : cudaSuccess;
}

extern "C" cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
    State& s = state();
    if (!ready("cudaGetDeviceProperties")) return cudaErrorInitializationError;
    if (!prop) return fail(cudaErrorInvalidValue, "cudaGetDeviceProperties: null pointer");
    if (device != 0) return fail(cudaErrorInvalidDevice, format("cudaGetDeviceProperties: device %d does not exist; the judge runs on device 0", device));
    std::memset(prop, 0, sizeof *prop);
    s.driver.cuDeviceGetName(prop->name, sizeof prop->name, s.device);
    s.driver.cuDeviceTotalMem(&prop->totalGlobalMem, s.device);
    auto get = [&](int attr) {
        int v = 0;
        s.driver.cuDeviceGetAttribute(&v, attr, s.device);
        return v;
    };
    prop->sharedMemPerBlock = get(cudaDevAttrMaxSharedMemoryPerBlock);
    prop->regsPerBlock = get(cudaDevAttrMaxRegistersPerBlock);
    prop->warpSize = get(cudaDevAttrWarpSize);
    prop->memPitch = get(cudaDevAttrMaxPitch);
    prop->maxThreadsPerBlock = get(cudaDevAttrMaxThreadsPerBlock);
    for (int i = 0; i < 3; ++i) {
        prop->maxThreadsDim[i] = get(cudaDevAttrMaxBlockDimX + i);
        prop->maxGridSize[i] = get(cudaDevAttrMaxGridDimX + i);
    }
    prop->clockRate = get(cudaDevAttrClockRate);
    prop->totalConstMem = get(cudaDevAttrTotalConstantMemory);
    prop->major = get(cudaDevAttrComputeCapabilityMajor);
    prop->minor = get(cudaDevAttrComputeCapabilityMinor);
    prop->multiProcessorCount = get(cudaDevAttrMultiProcessorCount);
    prop->concurrentKernels = get(cudaDevAttrConcurrentKernels);
    prop->ECCEnabled = get(cudaDevAttrEccEnabled);
    prop->pciBusID = get(cudaDevAttrPciBusId);
    prop->pciDeviceID = get(cudaDevAttrPciDeviceId);
    prop->asyncEngineCount = get(cudaDevAttrAsyncEngineCount);
    prop->unifiedAddressing = get(cudaDevAttrUnifiedAddressing);
    prop->memoryClockRate = get(cudaDevAttrMemoryClockRate);
    prop->memoryBusWidth = get(cudaDevAttrGlobalMemoryBusWidth);
    prop->l2CacheSize = get(cudaDevAttrL2CacheSize);
    prop->persistingL2CacheMaxSize = get(cudaDevAttrMaxPersistingL2CacheSize);
    prop->maxThreadsPerMultiProcessor = get(cudaDevAttrMaxThreadsPerMultiProcessor);
    prop->sharedMemPerMultiprocessor = get(cudaDevAttrMaxSharedMemoryPerMultiprocessor);
    prop->regsPerMultiprocessor = get(cudaDevAttrMaxRegistersPerMultiprocessor);
    prop->managedMemory = get(cudaDevAttrManagedMemory);
    prop->cooperativeLaunch = get(cudaDevAttrCooperativeLaunch);
    prop->sharedMemPerBlockOptin = get(cudaDevAttrMaxSharedMemoryPerBlockOptin);
    prop->maxBlocksPerMultiProcessor = get(cudaDevAttrMaxBlocksPerMultiprocessor);
    return cudaSuccess;
}

extern "C" cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value) {
    State& s = state();
    if (!ready("cudaFuncSetAttribute")) return cudaErrorInitializationError;
    Kernel* k = find_kernel(func);
    if (!k) return fail(cudaErrorInvalidDeviceFunction, "cudaFuncSetAttribute: the function is not a kernel the judge compiled");
    if (attr != cudaFuncAttributeMaxDynamicSharedMemorySize && attr != cudaFuncAttributePreferredSharedMemoryCarveout)
        return fail(cudaErrorInvalidValue, format("cudaFuncSetAttribute(%s): attribute %d is not supported", k->name, static_cast<int>(attr)));
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize && (value < 0 || value > s.limits.max_shared_optin - k->static_shared))
        return fail(cudaErrorInvalidValue, format("cudaFuncSetAttribute(%s, cudaFuncAttributeMaxDynamicSharedMemorySize, %d): "
                                                  "the device allows at most %d bytes of dynamic shared memory for it",
                                                  k->name, value, s.limits.max_shared_optin - k->static_shared));
    CUresult r = s.driver.cuFuncSetAttribute(k->function, attr, value);
    if (r) return fail(cudaErrorInvalidValue, format("cudaFuncSetAttribute(%s): %s", k->name, driver_message(r).c_str()));
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) k->dynamic_shared_limit = value;
    return cudaSuccess;
}

extern "C" cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* func, int blockSize,
                                                                     size_t dynamicSMemSize) {
    State& s = state();
    if (!ready("cudaOccupancyMaxActiveBlocksPerMultiprocessor")) return cudaErrorInitializationError;
    Kernel* k = find_kernel(func);
    if (!k || !numBlocks) return fail(cudaErrorInvalidDeviceFunction, "cudaOccupancyMaxActiveBlocksPerMultiprocessor: not a kernel the judge compiled");
    CUresult r = s.driver.cuOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, k->function, blockSize, dynamicSMemSize);
    return r ? fail(cudaErrorInvalidValue, "cudaOccupancyMaxActiveBlocksPerMultiprocessor: " + driver_message(r)) : cudaSuccess;
}

extern "C" cudaError_t cudajudge_occupancy_max_potential_block_size(int* minGridSize, int* blockSize, const void* func,
                                                                   size_t dynamicSMemSize, int blockSizeLimit) {
    State& s = state();
    if (!ready("cudaOccupancyMaxPotentialBlockSize")) return cudaErrorInitializationError;
    Kernel* k = find_kernel(func);
    if (!k || !minGridSize || !blockSize) return fail(cudaErrorInvalidDeviceFunction, "cudaOccupancyMaxPotentialBlockSize: not a kernel the judge compiled");
    CUresult r = s.driver.cuOccupancyMaxPotentialBlockSize(minGridSize, blockSize, k->function, nullptr, dynamicSMemSize, blockSizeLimit);
    return r ? fail(cudaErrorInvalidValue, "cudaOccupancyMaxPotentialBlockSize: " + driver_message(r)) : cudaSuccess;
}

// --- the harness ABI ------------------------------------------------------------------------

CUDAJUDGE_EXPORT int cudajudge_init(const void* cubin, size_t cubin_size, unsigned long long arena_ptr,
                                    size_t arena_bytes, void* stream) {
    State& s = state();
    std::string missing = s.driver.load();
    if (!missing.empty()) return fail(cudaErrorNoDevice, missing);
    if (!cubin || cubin_size == 0) return fail(cudaErrorInvalidKernelImage, "the judge passed no cubin");
    CUresult r = s.driver.cuInit(0);
    if (r) return fail(static_cast<cudaError_t>(r), "cuInit: " + driver_message(r));
    CUcontext context = nullptr;
    s.driver.cuCtxGetCurrent(&context);
    if (context) {
        r = s.driver.cuCtxGetDevice(&s.device);
    } else {
        r = s.driver.cuDeviceGet(&s.device, 0);
        if (!r) r = s.driver.cuDevicePrimaryCtxRetain(&context, s.device);
        if (!r) r = s.driver.cuCtxSetCurrent(context);
        s.retained_primary = r == 0;
    }
    if (r) return fail(static_cast<cudaError_t>(r), "joining the CUDA context: " + driver_message(r));
    s.context = context;
    r = s.driver.cuModuleLoadData(&s.module, cubin);
    if (r) return fail(static_cast<cudaError_t>(r), "loading the compiled kernels: " + driver_message(r));

    Limits& limits = s.limits;
    s.driver.cuDeviceGetAttribute(&limits.max_threads_per_block, cudaDevAttrMaxThreadsPerBlock, s.device);
    for (int i = 0; i < 3; ++i) {
        s.driver.cuDeviceGetAttribute(&limits.max_block[i], cudaDevAttrMaxBlockDimX + i, s.device);
        s.driver.cuDeviceGetAttribute(&limits.max_grid[i], cudaDevAttrMaxGridDimX + i, s.device);
    }
    s.driver.cuDeviceGetAttribute(&limits.max_shared_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, s.device);

    for (Kernel& k : kernels()) {
        r = s.driver.cuModuleGetFunction(&k.function, s.module, k.lowered);
        if (r) return fail(static_cast<cudaError_t>(r), format("kernel %s (%s) is missing from the cubin: %s", k.name,
                                                               k.lowered, driver_message(r).c_str()));
        s.driver.cuFuncGetAttribute(&k.max_threads, kFuncMaxThreadsPerBlock, k.function);
        s.driver.cuFuncGetAttribute(&k.static_shared, kFuncStaticSharedBytes, k.function);
    }
    s.arena = arena_ptr;
    s.arena_bytes = arena_bytes;
    s.blocks.clear();
    s.in_use = 0;
    s.stream = static_cast<CUstream>(stream);
    s.ready = true;
    return cudaSuccess;
}

CUDAJUDGE_EXPORT void cudajudge_set_stream(void* stream) { state().stream = static_cast<CUstream>(stream); }

CUDAJUDGE_EXPORT void cudajudge_set_checked_launches(int on) { state().checked_launches = on != 0; }

CUDAJUDGE_EXPORT void cudajudge_set_profiled_launches(int on) { state().profiled_launches = on != 0; }

CUDAJUDGE_EXPORT void cudajudge_set_algorithm_handler(cudajudge_algorithm_handler handler) {
    state().algorithm_handler = handler;
}

CUDAJUDGE_EXPORT int cudajudge_last_error_message(char* buffer, size_t capacity) {
    State& s = state();
    if (buffer && capacity) {
        std::strncpy(buffer, s.first_message.c_str(), capacity - 1);
        buffer[capacity - 1] = '\0';
    }
    return s.first_error;
}

CUDAJUDGE_EXPORT int cudajudge_memory_exceeded(void) { return state().memory_exceeded ? 1 : 0; }

CUDAJUDGE_EXPORT size_t cudajudge_arena_in_use(void) { return state().in_use; }

CUDAJUDGE_EXPORT int cudajudge_launch_count(void) { return static_cast<int>(state().launch_total); }

CUDAJUDGE_EXPORT int cudajudge_launch_record(int index, cudajudge_launch_info* info) {
    State& s = state();
    if (index < 0 || static_cast<size_t>(index) >= s.launches.size() || !info) return -1;
    *info = s.launches[index];
    auto [start, end] = s.launch_events[index];
    float ms = 0;
    if (start && end && s.driver.cuEventSynchronize(end) == 0 && s.driver.cuEventElapsedTime(&ms, start, end) == 0)
        info->elapsed_ms = ms;
    return 0;
}

CUDAJUDGE_EXPORT void cudajudge_reset(void) {
    State& s = state();
    for (auto [start, end] : s.launch_events) {
        if (start) s.driver.cuEventDestroy(start);
        if (end) s.driver.cuEventDestroy(end);
    }
    s.launch_events.clear();
    s.launches.clear();
    s.launch_total = 0;
    s.last_error = s.first_error = cudaSuccess;
    s.first_message.clear();
    s.memory_exceeded = false;
    s.pending.set = false;
}

CUDAJUDGE_EXPORT void cudajudge_shutdown(void) {
    State& s = state();
    if (s.module) s.driver.cuModuleUnload(s.module);
    if (s.retained_primary) s.driver.cuDevicePrimaryCtxRelease(s.device);
    s.module = nullptr;
    s.context = nullptr;
    s.retained_primary = false;
    s.ready = false;
}
