#include "fiber.h"

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#define CUDAJUDGE_SANITIZER_FIBERS 1
#else
#define CUDAJUDGE_SANITIZER_FIBERS 0
#endif

extern "C" void cudajudge_context_switch(void** save_sp, void* load_sp);
extern "C" void cudajudge_context_start();

namespace cudajudge::detail {

namespace {

constexpr size_t cache_line = 64;

size_t page_size() {
    static const size_t size = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    return size;
}

// The frame cudajudge_context_switch pops when it first resumes a new fiber (see context_switch.S).
struct InitialFrame {
    void* r15;
    void* r14;
    void* r13;  // entry argument
    void* r12;  // entry function
    void* rbx;
    void* rbp;
    void* return_address;  // cudajudge_context_start
    void* caller_return;   // a null return address ends stack walks here
    void* alignment;
};
static_assert(sizeof(InitialFrame) == 72, "the initial frame must match context_switch.S");

}  // namespace

FiberPool::~FiberPool() {
    for (auto& fiber : fibers_) unmap(*fiber);
}

Fiber* FiberPool::take(size_t stack_bytes) {
    const size_t page = page_size();
    stack_bytes = (stack_bytes + page - 1) / page * page;
    Fiber* fiber;
    if (!free_.empty()) {
        fiber = free_.back();
        free_.pop_back();
        if (fiber->stack_size == stack_bytes) return fiber;
        unmap(*fiber);
    } else {
        fibers_.push_back(std::make_unique<Fiber>());
        fiber = fibers_.back().get();
        // Stack tops are page-aligned, so without an offset every suspended fiber's frame would
        // land in the same few cache sets; a block's threads resume one after another.
        fiber->color = (fibers_.size() * cache_line) % page;
    }
    void* base = mmap(nullptr, stack_bytes + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (base == MAP_FAILED) throw std::bad_alloc();
    mprotect(base, page, PROT_NONE);
    fiber->guard = static_cast<char*>(base);
    fiber->stack_low = fiber->guard + page;
    fiber->stack_size = stack_bytes;
    return fiber;
}

void FiberPool::unmap(Fiber& fiber) {
    if (fiber.guard) munmap(fiber.guard, fiber.stack_size + page_size());
    fiber.guard = fiber.stack_low = nullptr;
    fiber.stack_size = 0;
}

Fiber* FiberPool::start(void (*entry)(void*), void* arg, size_t stack_bytes) {
    Fiber* fiber = take(stack_bytes);
    auto* frame = reinterpret_cast<InitialFrame*>(fiber->stack_low + fiber->stack_size - fiber->color - sizeof(InitialFrame));
    *frame = InitialFrame{};
    frame->r13 = arg;
    frame->r12 = reinterpret_cast<void*>(entry);
    frame->return_address = reinterpret_cast<void*>(&cudajudge_context_start);
    fiber->sp = frame;
    fiber->thread = -1;
    ++busy_;
    return fiber;
}

void FiberPool::release(Fiber* fiber) {
    fiber->thread = -1;
    free_.push_back(fiber);
    --busy_;
}

// A block that ends normally has released every fiber; only an abandoned one leaves some handed out.
void FiberPool::release_all() {
    if (busy_ == 0) return;
    free_.clear();
    for (auto& fiber : fibers_) {
        fiber->thread = -1;
        free_.push_back(fiber.get());
    }
    busy_ = 0;
}

const Fiber* FiberPool::guard_owner(const void* addr) const {
    const char* p = static_cast<const char*>(addr);
    for (const auto& fiber : fibers_)
        if (fiber->guard && p >= fiber->guard && p < fiber->guard + page_size()) return fiber.get();
    return nullptr;
}

void adopt_native_stack(Fiber& fiber) {
    pthread_attr_t attr;
    void* low = nullptr;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        pthread_attr_getstack(&attr, &low, &size);
        pthread_attr_destroy(&attr);
    }
    fiber.stack_low = static_cast<char*>(low);
    fiber.stack_size = size;
    fiber.guard = nullptr;
    fiber.thread = -1;
}

FpControlScope::FpControlScope() {
    __asm__ volatile("stmxcsr %0" : "=m"(mxcsr_));
    __asm__ volatile("fnstcw %0" : "=m"(x87_));
    const uint32_t mxcsr = 0x1F80;   // all exceptions masked, round to nearest, no flush to zero
    const uint16_t x87 = 0x037F;     // the ABI's default
    __asm__ volatile("ldmxcsr %0" : : "m"(mxcsr));
    __asm__ volatile("fldcw %0" : : "m"(x87));
}

FpControlScope::~FpControlScope() {
    __asm__ volatile("ldmxcsr %0" : : "m"(mxcsr_));
    __asm__ volatile("fldcw %0" : : "m"(x87_));
}

void switch_fiber(Fiber& from, Fiber& to) {
#if CUDAJUDGE_SANITIZER_FIBERS
    __sanitizer_start_switch_fiber(&from.sanitizer_fake_stack, to.stack_low, to.stack_size);
    cudajudge_context_switch(&from.sp, to.sp);
    __sanitizer_finish_switch_fiber(from.sanitizer_fake_stack, nullptr, nullptr);
#else
    cudajudge_context_switch(&from.sp, to.sp);
#endif
}

void leave_fiber(Fiber& from, Fiber& to) {
#if CUDAJUDGE_SANITIZER_FIBERS
    __sanitizer_start_switch_fiber(nullptr, to.stack_low, to.stack_size);
#endif
    cudajudge_context_switch(&from.sp, to.sp);
    __builtin_unreachable();
}

void before_jump_to(Fiber& to) {
#if CUDAJUDGE_SANITIZER_FIBERS
    __sanitizer_start_switch_fiber(nullptr, to.stack_low, to.stack_size);
#else
    (void)to;
#endif
}

void fiber_started() {
#if CUDAJUDGE_SANITIZER_FIBERS
    __sanitizer_finish_switch_fiber(nullptr, nullptr, nullptr);
#endif
}

}  // namespace cudajudge::detail
