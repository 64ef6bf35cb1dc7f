// The callbacks of g++'s ThreadSanitizer instrumentation (-fsanitize=thread), which the CPU build
// of a submission is compiled with: every load, store and atomic of its code calls one of these
// before it happens. No sanitizer runtime is linked; the memory observer takes their place, and
// returns at once unless an observed launch runs. The atomics do the operation themselves.
#include "memory_observer.h"

using namespace cudajudge::detail;

#define CUDAJUDGE_HOOK extern "C" __attribute__((visibility("default"), used))
#define CALLER __builtin_return_address(0)

namespace {

inline void seen(const void* address, size_t size, unsigned int flags, const void* pc) {
    if (__builtin_expect(observing, 0)) observe(address, size, flags, pc);
}

inline void seen_atomic(const volatile void* address, size_t size, bool write, const void* pc) {
    if (__builtin_expect(observing, 0)) {
        observe(const_cast<const void*>(address), size, access_atomic | (write ? access_write : 0u), pc);
        observe_fence();
    }
}

}  // namespace

#define CUDAJUDGE_PLAIN(size)                                                                                      \
    CUDAJUDGE_HOOK void __tsan_read##size(void* p) { seen(p, size, 0, CALLER); }                                  \
    CUDAJUDGE_HOOK void __tsan_write##size(void* p) { seen(p, size, access_write, CALLER); }                      \
    CUDAJUDGE_HOOK void __tsan_unaligned_read##size(void* p) { seen(p, size, 0, CALLER); }                        \
    CUDAJUDGE_HOOK void __tsan_unaligned_write##size(void* p) { seen(p, size, access_write, CALLER); }            \
    CUDAJUDGE_HOOK void __tsan_volatile_read##size(void* p) { seen(p, size, access_volatile, CALLER); }           \
    CUDAJUDGE_HOOK void __tsan_volatile_write##size(void* p) { seen(p, size, access_volatile | access_write, CALLER); } \
    CUDAJUDGE_HOOK void __tsan_unaligned_volatile_read##size(void* p) { seen(p, size, access_volatile, CALLER); } \
    CUDAJUDGE_HOOK void __tsan_unaligned_volatile_write##size(void* p) { seen(p, size, access_volatile | access_write, CALLER); }
CUDAJUDGE_PLAIN(1)
CUDAJUDGE_PLAIN(2)
CUDAJUDGE_PLAIN(4)
CUDAJUDGE_PLAIN(8)
CUDAJUDGE_PLAIN(16)
#undef CUDAJUDGE_PLAIN

CUDAJUDGE_HOOK void __tsan_read_range(void* p, unsigned long size) { seen(p, size, 0, CALLER); }
CUDAJUDGE_HOOK void __tsan_write_range(void* p, unsigned long size) { seen(p, size, access_write, CALLER); }
CUDAJUDGE_HOOK void __tsan_init() {}
CUDAJUDGE_HOOK void __tsan_func_entry(void*) {}
CUDAJUDGE_HOOK void __tsan_func_exit() {}
CUDAJUDGE_HOOK void __tsan_vptr_update(void**, void*) {}
CUDAJUDGE_HOOK void __tsan_vptr_read(void**) {}

CUDAJUDGE_HOOK void __tsan_atomic_thread_fence(int) {
    if (__builtin_expect(observing, 0)) observe_fence();
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
}
CUDAJUDGE_HOOK void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }

// Every memory order is served as sequentially consistent: at least as strong as asked.
#define CUDAJUDGE_ATOMIC_RMW(bits, T, op)                                                                          \
    CUDAJUDGE_HOOK T __tsan_atomic##bits##_##op(volatile T* a, T v, int) {                                         \
        seen_atomic(a, sizeof(T), true, CALLER);                                                                   \
        return __atomic_##op(a, v, __ATOMIC_SEQ_CST);                                                              \
    }
#define CUDAJUDGE_ATOMICS(bits, T)                                                                                 \
    CUDAJUDGE_HOOK T __tsan_atomic##bits##_load(const volatile T* a, int) {                                        \
        seen_atomic(a, sizeof(T), false, CALLER);                                                                  \
        return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                               \
    }                                                                                                              \
    CUDAJUDGE_HOOK void __tsan_atomic##bits##_store(volatile T* a, T v, int) {                                     \
        seen_atomic(a, sizeof(T), true, CALLER);                                                                   \
        __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                                  \
    }                                                                                                              \
    CUDAJUDGE_HOOK T __tsan_atomic##bits##_exchange(volatile T* a, T v, int) {                                     \
        seen_atomic(a, sizeof(T), true, CALLER);                                                                   \
        return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                                        \
    }                                                                                                              \
    CUDAJUDGE_ATOMIC_RMW(bits, T, fetch_add)                                                                       \
    CUDAJUDGE_ATOMIC_RMW(bits, T, fetch_sub)                                                                       \
    CUDAJUDGE_ATOMIC_RMW(bits, T, fetch_and)                                                                       \
    CUDAJUDGE_ATOMIC_RMW(bits, T, fetch_or)                                                                        \
    CUDAJUDGE_ATOMIC_RMW(bits, T, fetch_xor)                                                                       \
    CUDAJUDGE_ATOMIC_RMW(bits, T, fetch_nand)                                                                      \
    CUDAJUDGE_HOOK int __tsan_atomic##bits##_compare_exchange_strong(volatile T* a, T* c, T v, int, int) {         \
        seen_atomic(a, sizeof(T), true, CALLER);                                                                   \
        return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                    \
    }                                                                                                              \
    CUDAJUDGE_HOOK int __tsan_atomic##bits##_compare_exchange_weak(volatile T* a, T* c, T v, int, int) {           \
        seen_atomic(a, sizeof(T), true, CALLER);                                                                   \
        return __atomic_compare_exchange_n(a, c, v, true, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                     \
    }                                                                                                              \
    CUDAJUDGE_HOOK T __tsan_atomic##bits##_compare_exchange_val(volatile T* a, T c, T v, int, int) {               \
        seen_atomic(a, sizeof(T), true, CALLER);                                                                   \
        __atomic_compare_exchange_n(a, &c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                          \
        return c;                                                                                                  \
    }
CUDAJUDGE_ATOMICS(8, unsigned char)
CUDAJUDGE_ATOMICS(16, unsigned short)
CUDAJUDGE_ATOMICS(32, unsigned int)
CUDAJUDGE_ATOMICS(64, unsigned long long)
#undef CUDAJUDGE_ATOMICS
#undef CUDAJUDGE_ATOMIC_RMW
