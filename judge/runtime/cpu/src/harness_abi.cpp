// The C ABI for the harness; see cudajudge_cpu_abi.h.
#include "../cudajudge_cpu_abi.h"

#include <algorithm>
#include <cstring>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

#include "access_hints.h"
#include "device_access.h"
#include "device_memory.h"
#include "error_state.h"
#include "host_buffers.h"
#include "kernel_attributes.h"
#include "memory_observer.h"
#include "outcome.h"
#include "settings.h"
#include "worker_pool.h"

using namespace cudajudge::detail;

#define CUDAJUDGE_EXPORT __attribute__((visibility("default")))

extern "C" {

CUDAJUDGE_EXPORT void cudajudge_cpu_set_threads(int count) { worker_pool().set_threads(count); }

CUDAJUDGE_EXPORT int cudajudge_cpu_threads(void) { return worker_pool().threads(); }

CUDAJUDGE_EXPORT void cudajudge_cpu_set_schedule(int order, uint64_t seed) {
    settings().schedule = (order == CUDAJUDGE_CPU_REVERSE) ? Schedule::reverse : (order == CUDAJUDGE_CPU_RANDOM) ? Schedule::random : Schedule::forward;
    settings().seed = seed;
}

CUDAJUDGE_EXPORT void cudajudge_cpu_set_observe(int on) { settings().observe = on != 0; }

CUDAJUDGE_EXPORT void cudajudge_cpu_name_buffer(const void* buffer, uint64_t bytes, uint64_t before, uint64_t after, const char* name,
                                               uint64_t element) {
    name_global(buffer, bytes, before, after, name ? name : "a buffer", element);
    add_device_region(buffer, bytes, before, after);
}

CUDAJUDGE_EXPORT void cudajudge_cpu_forget_buffer(const void* buffer) {
    forget_global(buffer);
    remove_device_region(buffer);
}

CUDAJUDGE_EXPORT void cudajudge_cpu_host_code(int running) { running ? host_code_begins() : host_code_ends(); }

CUDAJUDGE_EXPORT void cudajudge_cpu_set_arena_bytes(uint64_t bytes) { settings().arena_bytes = bytes; }

CUDAJUDGE_EXPORT void cudajudge_cpu_set_printf_cap(uint64_t bytes) { settings().printf_cap = bytes; }

CUDAJUDGE_EXPORT void cudajudge_cpu_set_stack_bytes(uint64_t bytes) {
    if (bytes >= 16 * 1024) settings().stack_bytes = bytes;
}

// Before each call. cudaMalloc'd memory stays, as on a GPU: a workspace kept across calls is legal.
CUDAJUDGE_EXPORT void cudajudge_cpu_reset(void) {
    reset_errors();
    reset_kernel_attributes();
    outcome().reset();
    hints_reset();
}

CUDAJUDGE_EXPORT uint64_t cudajudge_cpu_hints(char* buffer, uint64_t capacity) {
    const std::string text = hints_text();
    if (buffer && capacity) std::memcpy(buffer, text.data(), std::min<uint64_t>(capacity, text.size()));
    return text.size();
}

CUDAJUDGE_EXPORT int cudajudge_cpu_verdict(void) { return static_cast<int>(outcome().verdict()); }

CUDAJUDGE_EXPORT const char* cudajudge_cpu_error_kind(void) { return outcome().error_kind(); }

CUDAJUDGE_EXPORT const char* cudajudge_cpu_error_message(void) { return outcome().error_message(); }

CUDAJUDGE_EXPORT int64_t cudajudge_cpu_error_launch(void) { return outcome().error_launch(); }

CUDAJUDGE_EXPORT uint64_t cudajudge_cpu_launch_count(void) { return outcome().launch_count(); }

CUDAJUDGE_EXPORT int cudajudge_cpu_launch_record(uint64_t index, struct cudajudge_cpu_launch* record) {
    const LaunchRecord* launch = outcome().launch(index);
    if (!launch || !record) return -1;
    record->kernel = launch->kernel.c_str();
    for (int i = 0; i < 3; ++i) {
        record->grid[i] = launch->grid[i];
        record->block[i] = launch->block[i];
    }
    record->shared_bytes = launch->shared_bytes;
    record->line = launch->line;
    record->status = launch->status;
    return 0;
}

CUDAJUDGE_EXPORT uint64_t cudajudge_cpu_printf_size(void) { return outcome().printf_size(); }

CUDAJUDGE_EXPORT uint64_t cudajudge_cpu_printf_read(char* buffer, uint64_t capacity) {
    return buffer ? outcome().printf_copy(buffer, capacity) : 0;
}

CUDAJUDGE_EXPORT uint64_t cudajudge_cpu_printf_dropped(void) { return outcome().printf_dropped(); }

CUDAJUDGE_EXPORT void* cudajudge_cpu_alloc(uint64_t bytes) { return allocate_fenced(bytes); }

CUDAJUDGE_EXPORT int cudajudge_cpu_free(void* buffer) { return free_fenced(buffer) ? 0 : -1; }

CUDAJUDGE_EXPORT int cudajudge_cpu_sanitized(void) {
#if defined(__SANITIZE_ADDRESS__)
    return 1;
#else
    return 0;
#endif
}

CUDAJUDGE_EXPORT void cudajudge_cpu_poison(const void* address, uint64_t bytes) {
#if defined(__SANITIZE_ADDRESS__)
    ASAN_POISON_MEMORY_REGION(address, bytes);
#else
    (void)address;
    (void)bytes;
#endif
}

CUDAJUDGE_EXPORT void cudajudge_cpu_unpoison(const void* address, uint64_t bytes) {
#if defined(__SANITIZE_ADDRESS__)
    ASAN_UNPOISON_MEMORY_REGION(address, bytes);
#else
    (void)address;
    (void)bytes;
#endif
}

}  // extern "C"
