// Fibers: guard-paged stacks and the switch between them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace cudajudge::detail {

struct Fiber {
    void* sp = nullptr;             // saved stack pointer while the fiber is switched out
    char* stack_low = nullptr;      // lowest usable byte, just above the guard page
    size_t stack_size = 0;
    size_t color = 0;               // bytes left unused at the top of the stack (see FiberPool)
    char* guard = nullptr;          // the inaccessible page below the stack; null for a native stack
    int thread = -1;                // the emulated thread bound to this fiber, -1 when none
    void* sanitizer_fake_stack = nullptr;
};

// The fibers of one OS thread. Stacks are mapped once and reused for every block.
class FiberPool {
public:
    FiberPool() = default;
    FiberPool(const FiberPool&) = delete;
    FiberPool& operator=(const FiberPool&) = delete;
    ~FiberPool();

    // A free fiber prepared to run entry(arg) from the top of its stack.
    Fiber* start(void (*entry)(void*), void* arg, size_t stack_bytes);
    void release(Fiber* fiber);
    // Every fiber back to the free list: the block they ran is over or abandoned.
    void release_all();
    // The fiber whose guard page holds addr, if any.
    const Fiber* guard_owner(const void* addr) const;

private:
    Fiber* take(size_t stack_bytes);
    void unmap(Fiber& fiber);

    std::vector<std::unique_ptr<Fiber>> fibers_;
    std::vector<Fiber*> free_;
    size_t busy_ = 0;               // fibers handed out and not released
};

// The SSE and x87 control words (rounding, flush to zero, exception masks) the ABI starts a thread
// with, for the life of the scope, and the caller's back after it. A block's fibers share them: the
// switch between fibers leaves them alone, and a kernel's threads start as on a fresh thread.
class FpControlScope {
public:
    FpControlScope();
    ~FpControlScope();
    FpControlScope(const FpControlScope&) = delete;
    FpControlScope& operator=(const FpControlScope&) = delete;

private:
    uint32_t mxcsr_;
    uint16_t x87_;
};

// Describes the calling OS thread's own stack as a fiber, for switching back to it.
void adopt_native_stack(Fiber& fiber);

// Suspends `from` (the running fiber) and resumes `to`.
void switch_fiber(Fiber& from, Fiber& to);
// Leaves `from` for good: its stack may be reused as soon as `to` runs.
[[noreturn]] void leave_fiber(Fiber& from, Fiber& to);
// Before a long jump from a fiber (or a signal handler) onto `to`'s stack.
void before_jump_to(Fiber& to);
// First thing a fiber's entry function does, and the landing point of a jump between stacks.
void fiber_started();

}  // namespace cudajudge::detail
