// The C ABI a built submission (host shared library) exports to the judge's harness.
//
// The harness loads the library with ctypes in the process that holds the CUDA context
// (CuPy on the device's primary context), then:
//
//   cudajudge_init(cubin, cubin_size, arena_ptr, arena_bytes, stream)
//       Loads the driver (libcuda.so.1, at run time), joins the current context (or retains
//       the primary context of device 0 when the thread has none), loads the cubin and
//       resolves every kernel the host code may launch. cudaMalloc inside solve() is served
//       from [arena_ptr, arena_ptr + arena_bytes), device memory the harness owns. Launches
//       on stream 0 (and every other stream) go to `stream`. Returns 0 or a cudaError_t code;
//       the message is then in cudajudge_last_error_message.
//   cudajudge_set_stream(stream)           launches and copies go to this stream from now on
//   cudajudge_set_checked_launches(on)     on: synchronize after every launch, so a fault is
//                                          attributed to the launch that caused it (tests, not timing)
//   cudajudge_set_profiled_launches(on)    on: bracket every launch with a pair of events, so each
//                                          record carries the kernel's time (a profiling pass, not timing)
//   cudajudge_set_algorithm_handler(fn)    who runs device-wide algorithms (CUB's Device*, Thrust's):
//                                          fn(call, message, capacity) returns 0 or a cudaError_t code
//                                          with its message; each call is recorded like a launch
//   solve(...)                             the user's entry point
//   cudajudge_last_error_message(buf, n)   the first error recorded since the last reset:
//                                          returns its cudaError_t (0: none) and writes its message
//                                          (NUL-terminated, truncated to n bytes); errors are recorded
//                                          whether or not the user's code checks them
//   cudajudge_memory_exceeded()            1 if a cudaMalloc failed for lack of arena space since reset
//   cudajudge_arena_in_use()               bytes cudaMalloc'd and not yet freed
//   cudajudge_launch_count()               launches since reset (records beyond
//                                          CUDAJUDGE_MAX_LAUNCH_RECORDS are counted, not kept)
//   cudajudge_launch_record(i, &info)      fills info for launch i; returns 0, or -1 if i is out of range
//                                          (for a profiled launch it waits for the kernel to finish)
//   cudajudge_reset()                      forgets launch records and recorded errors (not allocations)
//   cudajudge_shutdown()                   unloads the module and releases what init retained
//
// ctypes view of cudajudge_launch_info:
//   class LaunchInfo(ctypes.Structure):
//       _fields_ = [("kernel", c_char_p), ("lowered", c_char_p), ("grid", c_uint * 3),
//                   ("block", c_uint * 3), ("shared_bytes", c_size_t), ("line", c_int), ("status", c_int),
//                   ("elapsed_ms", c_float)]
#pragma once

#include <cstddef>

#include "../host_std/cudajudge/device_algorithm_abi.h"

#define CUDAJUDGE_EXPORT extern "C" __attribute__((visibility("default")))
#define CUDAJUDGE_MAX_LAUNCH_RECORDS 4096

struct cudajudge_launch_info {
    const char* kernel;       // the kernel as the source names it, e.g. "scan<256>"
    const char* lowered;      // its name in the cubin
    unsigned int grid[3];
    unsigned int block[3];
    size_t shared_bytes;      // dynamic shared memory requested
    int line;                 // the launch's line in the user's file
    int status;               // cudaError_t: 0 if the launch was made, else why it was refused or failed
    float elapsed_ms;         // the kernel's time on the device if the launch was profiled, else -1
};

CUDAJUDGE_EXPORT int cudajudge_init(const void* cubin, size_t cubin_size, unsigned long long arena_ptr,
                                    size_t arena_bytes, void* stream);
CUDAJUDGE_EXPORT void cudajudge_set_stream(void* stream);
CUDAJUDGE_EXPORT void cudajudge_set_checked_launches(int on);
CUDAJUDGE_EXPORT void cudajudge_set_profiled_launches(int on);
typedef int (*cudajudge_algorithm_handler)(const cudajudge_algorithm_call* call, char* message, size_t capacity);
CUDAJUDGE_EXPORT void cudajudge_set_algorithm_handler(cudajudge_algorithm_handler handler);
CUDAJUDGE_EXPORT int cudajudge_last_error_message(char* buffer, size_t capacity);
CUDAJUDGE_EXPORT int cudajudge_memory_exceeded(void);
CUDAJUDGE_EXPORT size_t cudajudge_arena_in_use(void);
CUDAJUDGE_EXPORT int cudajudge_launch_count(void);
CUDAJUDGE_EXPORT int cudajudge_launch_record(int index, cudajudge_launch_info* info);
CUDAJUDGE_EXPORT void cudajudge_reset(void);
CUDAJUDGE_EXPORT void cudajudge_shutdown(void);

// The kernel table the build links into every library: entry i is the host stub's address
// (from the host TU), the name the source uses and the lowered name in the cubin (from NVRTC).
extern "C" const void* const cudajudge_kernel_addresses[];
extern "C" const char* const cudajudge_kernel_names[];
extern "C" const char* const cudajudge_kernel_lowered[];
extern "C" const int cudajudge_kernel_count;
// The judge's own kernels for the user's functors (cudajudge/functor_kernels.h), likewise: the
// address of the host object's stub, the algorithm the launches are shown under, the lowered name.
extern "C" const void* const cudajudge_judge_kernel_addresses[];
extern "C" const char* const cudajudge_judge_kernel_names[];
extern "C" const char* const cudajudge_judge_kernel_lowered[];
extern "C" const int cudajudge_judge_kernel_count;
