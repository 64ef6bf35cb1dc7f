#include "fault_handler.h"

#include <ucontext.h>

#include <mutex>

#include "device_access.h"

namespace cudajudge::detail {

namespace {

constexpr int handled_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
struct sigaction previous_actions[NSIG];

void forward(int signal, siginfo_t* info, void* context) {
    const struct sigaction& previous = previous_actions[signal];
    if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction) {
        previous.sa_sigaction(signal, info, context);
        return;
    }
    if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        previous.sa_handler(signal);
        return;
    }
    // Default action: re-raised, it is delivered (and kills) once this handler returns.
    struct sigaction default_action {};
    default_action.sa_handler = SIG_DFL;
    sigaction(signal, &default_action, nullptr);
    raise(signal);
}

void on_fault(int signal, siginfo_t* info, void* context) {
    Worker* worker = registers.worker;
    const auto* uc = static_cast<const ucontext_t*>(context);
    const auto* pc = reinterpret_cast<const void*>(uc->uc_mcontext.gregs[REG_RIP]);
    const bool write = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;  // page-fault error code: write access
    if (!worker || !worker->in_block) {
        // Host code that touched device memory goes on (the access is retried on the opened pages): it is reported.
        if (signal != SIGSEGV || !host_touched_device_memory(info->si_addr, pc, write)) forward(signal, info, context);
        return;
    }
    worker->fault.signal = signal;
    worker->fault.code = info->si_code;
    worker->fault.address = info->si_addr;
    worker->fault.pc = pc;
    worker->fault.write = write;
    worker->fault.thread = worker->running->thread;
    before_jump_to(worker->native);
    siglongjmp(worker->recover, 1);
}

}  // namespace

void install_fault_handlers() {
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction action {};
        action.sa_sigaction = &on_fault;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&action.sa_mask);
        for (int signal : handled_signals) sigaction(signal, &action, &previous_actions[signal]);
    });
}

SignalStackScope::SignalStackScope(Worker& worker) {
    if (sigaltstack(nullptr, &previous_) != 0) return;
    if (!(previous_.ss_flags & SS_DISABLE) && previous_.ss_size >= Worker::signal_stack_bytes) return;
    stack_t ours{};
    ours.ss_sp = worker.signal_stack.get();
    ours.ss_size = Worker::signal_stack_bytes;
    replaced_ = sigaltstack(&ours, nullptr) == 0;
}

SignalStackScope::~SignalStackScope() {
    if (replaced_) sigaltstack(&previous_, nullptr);
}

}  // namespace cudajudge::detail
