// What the harness configures between calls of solve(); read when a launch starts.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cudajudge::detail {

// The order in which a block's threads start and resume after each rendezvous. Running the
// same test in several orders exposes races between the threads of a block.
enum class Schedule : int { forward = 0, reverse = 1, random = 2 };

struct Settings {
    Schedule schedule = Schedule::forward;
    uint64_t seed = 0;
    bool observe = false;   // every access of device code checked (memory_observer.h)
    size_t arena_bytes = size_t{1} << 30;
    size_t printf_cap = size_t{1} << 20;
#if defined(__SANITIZE_ADDRESS__)
    size_t stack_bytes = 512 * 1024;  // the sanitizer's reports run on the faulting thread's stack
#else
    size_t stack_bytes = 64 * 1024;
#endif
};

Settings& settings();

}  // namespace cudajudge::detail
