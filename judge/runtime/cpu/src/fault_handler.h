// Faults inside kernels (stack overflow on a guard page, bad addresses, division by zero)
// become diagnostics: the handler, on an alternate signal stack, jumps back to the worker's
// scheduler, which abandons the block and records the error. Faults outside kernels go to
// whichever handler was installed before (normally: the process dies).
#pragma once

#include "worker.h"

namespace cudajudge::detail {

void install_fault_handlers();

// Gives the calling thread the worker's alternate signal stack while it runs blocks,
// restoring the thread's previous one afterwards.
class SignalStackScope {
public:
    explicit SignalStackScope(Worker& worker);
    ~SignalStackScope();
    SignalStackScope(const SignalStackScope&) = delete;
    SignalStackScope& operator=(const SignalStackScope&) = delete;

private:
    stack_t previous_{};
    bool replaced_ = false;
};

}  // namespace cudajudge::detail
