// Every load, store and atomic of device code, seen one by one on small tests: exact data races
// (shared and global memory), the bounds of each shared variable and of each named global buffer,
// each reported with the kernel, block, thread and source line.
//
// The submission is compiled with the compiler's ThreadSanitizer instrumentation, whose callbacks
// (judge/runtime/cpu/src/access_hooks.cpp) land here; no sanitizer runtime is linked. While a launch
// runs observed, its blocks run one after another on one OS thread, so the observer needs no locks
// and its findings do not depend on timing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace cudajudge::detail {

class BlockRun;
class GridJob;

// True while an observed launch runs; the instrumentation callbacks return at once otherwise.
extern bool observing;

enum AccessFlags : unsigned { access_write = 1, access_atomic = 2, access_volatile = 4 };

void observe(const void* address, size_t size, unsigned flags, const void* pc);
// A __threadfence() or an atomic: orders this thread's earlier global accesses before later ones
// of threads that synchronize with it.
void observe_fence();

// Global memory the observer can name and bound: `bytes` at `base`, with `before` and `after` guard
// bytes around it that no access may touch. `element`: the size of one element, 0 if unknown.
void name_global(const void* base, size_t bytes, size_t before, size_t after, std::string name, size_t element);
void forget_global(const void* base);
// For [ptr, ptr + bytes) when ptr lies in a named buffer: "" if the range fits in it, else how far it
// runs past its end; nullopt when ptr lies in no named buffer.
std::optional<std::string> named_overrun(const void* ptr, size_t bytes);
// "`input[3]`" (or "byte 12 of the ... buffer") for an address in a named buffer or its guards; nullopt elsewhere.
std::optional<std::string> named_element(const void* address);

// Called by the runtime around an observed launch and at each synchronization of its blocks.
void observer_launch_begins(const GridJob& job);
void observer_launch_ends();
void observer_block_begins(BlockRun& block);
void observer_block_ends();
void observer_barrier_released();
void observer_warp_synced(int warp, unsigned int lanes);
// Before another emulated thread runs: what the last store wrote is final.
void observer_settle();

}  // namespace cudajudge::detail
