// One OS thread that runs blocks: its fibers, its block scheduler, its dynamic shared memory
// and the recovery point its fault handler jumps back to.
#pragma once

#include <csetjmp>
#include <csignal>
#include <memory>

#include "block_run.h"
#include "device_limits.h"
#include "fiber.h"

namespace cudajudge::detail {

// What the fault handler saw, for the message written after it jumps back.
struct FaultInfo {
    int signal = 0;
    int code = 0;
    const void* address = nullptr;
    const void* pc = nullptr;
    bool write = false;
    int thread = -1;
};

struct Worker {
    static constexpr size_t signal_stack_bytes = 64 * 1024;
    static constexpr size_t shared_guard_bytes = 4096;   // checked around each block's dynamic shared memory
    // Where the __shared__ variables declared in functions live: 48 KiB of them at most, with red zones between.
    static constexpr size_t static_shared_bytes = 96 * 1024;
    // guard | static shared memory | guard | the largest opt-in dynamic shared memory | guard
    static constexpr size_t shared_window_bytes = 3 * shared_guard_bytes + static_shared_bytes + limits::shared_per_block_optin;

    Worker();
    Worker(const Worker&) = delete;
    Worker& operator=(const Worker&) = delete;

    Fiber native;             // the OS thread's own stack, where the scheduler waits
    Fiber* running = &native;
    FiberPool fibers;
    BlockRun block{*this};
    sigjmp_buf recover;
    volatile sig_atomic_t in_block = 0;
    FaultInfo fault;
    std::unique_ptr<unsigned char[]> signal_stack;
    // Shared memory, laid out as shared_window_bytes says.
    std::unique_ptr<unsigned char, void (*)(void*)> shared_allocation{nullptr, nullptr};
    // The array that names dynamic shared memory in diagnostics (the last `extern __shared__` seen).
    const char* dynamic_name = nullptr;
    size_t dynamic_element = 0;

    unsigned char* static_shared() const { return shared_allocation.get() + shared_guard_bytes; }
    unsigned char* dynamic_shared() const { return shared_allocation.get() + 2 * shared_guard_bytes + static_shared_bytes; }
};

// The calling OS thread's worker, created on first use.
Worker& this_worker();
// Frees the calling thread's worker, for a thread that will run no more blocks.
void retire_worker();

// The block the calling OS thread is running, or null in host code.
inline BlockRun* running_block() {
    Worker* worker = registers.worker;
    return worker && worker->in_block ? &worker->block : nullptr;
}

}  // namespace cudajudge::detail
