/*
 * The C ABI a CPU build of a submission exports for the harness.
 *
 * The harness loads the built shared library (ctypes, in a child process), allocates every
 * buffer itself in host memory and calls the submission's `solve` with those pointers. Around
 * each call it uses these functions:
 *
 *   configuration (between calls of solve):
 *     cudajudge_cpu_set_threads(n)          OS threads that run blocks, the calling thread
 *                                           included; 0 = CUDAJUDGE_CPU_THREADS or the core count.
 *     cudajudge_cpu_threads()               the count in effect.
 *     cudajudge_cpu_set_schedule(o, seed)   the order a block's threads start and resume in:
 *                                           CUDAJUDGE_CPU_FORWARD, _REVERSE or _RANDOM (seeded).
 *                                           Outputs that differ between orders reveal a race.
 *                                           Blocks are always handed out in increasing order.
 *     cudajudge_cpu_set_arena_bytes(b)      cap on cudaMalloc'd bytes (default 1 GiB); beyond
 *                                           it cudaMalloc fails and the verdict is MLE.
 *     cudajudge_cpu_set_printf_cap(b)       kernel printf bytes kept (default 1 MiB).
 *     cudajudge_cpu_set_stack_bytes(b)      stack of each emulated thread (default 64 KiB,
 *                                           512 KiB in AddressSanitizer builds; at least 16 KiB).
 *     cudajudge_cpu_set_observe(on)         with on = 1, every access of device code is observed
 *                                           (judge/runtime/cpu/src/memory_observer.h): a data race
 *                                           is CUDAJUDGE_CPU_WA, an access outside a shared variable
 *                                           or a named buffer RE, each with thread and line. Blocks
 *                                           then run one at a time on the calling thread.
 *     cudajudge_cpu_name_buffer(p, n, b, a, name, e)
 *                                           names the n bytes at p (elements of e bytes) for the
 *                                           observer's messages; the b bytes before and a after
 *                                           are guards no kernel may touch. The pages they lie on
 *                                           (the buffer's own) are device memory: closed to host
 *                                           code while solve() runs (cudajudge_cpu_host_code).
 *     cudajudge_cpu_forget_buffer(p)        drops that name (before the buffer is freed).
 *     cudajudge_cpu_reset()                 clears errors, the launch log, printf output and
 *                                           kernel attributes. Call it before each test.
 *                                           cudaMalloc'd buffers stay until cudaFree, as on a GPU.
 *
 *   memory for solve()'s arguments:
 *     cudajudge_cpu_alloc(bytes)            a buffer (256-byte aligned, not zeroed) that ends
 *                                           within 256 bytes of an inaccessible page, with another
 *                                           before it: a write far past the harness's guard
 *                                           bytes faults in the kernel and is reported as an
 *                                           illegal address naming kernel, block and thread,
 *                                           instead of corrupting the process. NULL on failure.
 *     cudajudge_cpu_free(buffer)            frees it; 0, or -1 for a pointer it did not return.
 *                                           cudajudge_cpu_reset does not free these.
 *
 *   the call:
 *     cudajudge_cpu_host_code(1)            right before solve(), and cudajudge_cpu_host_code(0)
 *                                           right after: in between, device memory (named buffers
 *                                           and cudaMalloc's) is inaccessible to host code, as on a
 *                                           GPU, and open to the runtime's own calls. A host access
 *                                           is RE (kind host_access) naming buffer, element and line.
 *
 *   outcome (after solve returns):
 *     cudajudge_cpu_verdict()               CUDAJUDGE_CPU_OK, _RE, _MLE, _WA (a data race, when
 *                                           observed) or _DEADLOCK (threads
 *                                           wait for each other at warp primitives or barriers
 *                                           and can never go on: on a GPU, a hang). Barrier
 *                                           divergence (threads at a barrier that others exited
 *                                           or reached on another line) is RE. A kernel that
 *                                           loops forever is not detected: the harness's deadline
 *                                           catches it.
 *     cudajudge_cpu_error_kind()            "" or one of: launch_config, out_of_memory,
 *                                           out_of_bounds, barrier_divergence, deadlock,
 *                                           warp_misuse, stack_overflow, illegal_address,
 *                                           arithmetic_error, illegal_instruction, trap, assert,
 *                                           exception, sanitizer, shared_out_of_bounds, data_race,
 *                                           host_access.
 *     cudajudge_cpu_error_message()         the first error, phrased for the learner, naming
 *                                           the kernel, block, thread and source lines.
 *     cudajudge_cpu_error_launch()          index of the launch it happened in, or -1.
 *     cudajudge_cpu_launch_count()          launches made (refused ones included).
 *     cudajudge_cpu_launch_record(i, &r)    fills record i (the first 100000 are kept); returns
 *                                           0, or -1 past the end. The kernel name stays valid
 *                                           until the next reset.
 *     cudajudge_cpu_hints(buf, cap)         copies up to cap bytes of the performance hints of the
 *                                           observed launches since the last reset (rows of text,
 *                                           judge/runtime/cpu/src/access_hints.h); returns their size.
 *     cudajudge_cpu_printf_size()           bytes of kernel printf output kept.
 *     cudajudge_cpu_printf_read(buf, cap)   copies up to cap of them; returns the count.
 *     cudajudge_cpu_printf_dropped()        bytes dropped beyond the cap (an output flood).
 *     cudajudge_cpu_sanitized()             1 in an AddressSanitizer build.
 *     cudajudge_cpu_poison(p, n)            in such a build, makes any access to [p, p+n) a
 *     cudajudge_cpu_unpoison(p, n)          reported error (e.g. a buffer's guard bytes), and
 *                                           undoes that (before the harness reads them back);
 *                                           no-ops otherwise. The sanitizer's reports arrive as
 *                                           errors of kind "sanitizer", with the source line.
 *
 * Strings returned stay valid until the next call that changes them.
 */
#ifndef CUDAJUDGE_CPU_ABI_H
#define CUDAJUDGE_CPU_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { CUDAJUDGE_CPU_FORWARD = 0, CUDAJUDGE_CPU_REVERSE = 1, CUDAJUDGE_CPU_RANDOM = 2 };
enum { CUDAJUDGE_CPU_OK = 0, CUDAJUDGE_CPU_RE = 1, CUDAJUDGE_CPU_MLE = 2, CUDAJUDGE_CPU_DEADLOCK = 3, CUDAJUDGE_CPU_WA = 4 };

struct cudajudge_cpu_launch {
    const char* kernel;
    uint32_t grid[3];
    uint32_t block[3];
    uint64_t shared_bytes;
    int32_t line;    /* of the launch in the submission */
    int32_t status;  /* its cudaError_t: 0, or why it was refused or failed */
};

void cudajudge_cpu_set_threads(int count);
int cudajudge_cpu_threads(void);
void cudajudge_cpu_set_schedule(int order, uint64_t seed);
void cudajudge_cpu_set_arena_bytes(uint64_t bytes);
void cudajudge_cpu_set_printf_cap(uint64_t bytes);
void cudajudge_cpu_set_stack_bytes(uint64_t bytes);
void cudajudge_cpu_reset(void);
void cudajudge_cpu_set_observe(int on);
void cudajudge_cpu_name_buffer(const void* buffer, uint64_t bytes, uint64_t before, uint64_t after, const char* name, uint64_t element);
void cudajudge_cpu_forget_buffer(const void* buffer);
void cudajudge_cpu_host_code(int running);
uint64_t cudajudge_cpu_hints(char* buffer, uint64_t capacity);

void* cudajudge_cpu_alloc(uint64_t bytes);
int cudajudge_cpu_free(void* buffer);

int cudajudge_cpu_verdict(void);
const char* cudajudge_cpu_error_kind(void);
const char* cudajudge_cpu_error_message(void);
int64_t cudajudge_cpu_error_launch(void);
uint64_t cudajudge_cpu_launch_count(void);
int cudajudge_cpu_launch_record(uint64_t index, struct cudajudge_cpu_launch* record);
uint64_t cudajudge_cpu_printf_size(void);
uint64_t cudajudge_cpu_printf_read(char* buffer, uint64_t capacity);
uint64_t cudajudge_cpu_printf_dropped(void);
int cudajudge_cpu_sanitized(void);
void cudajudge_cpu_poison(const void* address, uint64_t bytes);
void cudajudge_cpu_unpoison(const void* address, uint64_t bytes);

#ifdef __cplusplus
}
#endif

#endif
