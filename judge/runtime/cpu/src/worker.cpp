#include "worker.h"

#include <cstdlib>
#include <new>

#include "device_limits.h"

namespace cudajudge::detail {

__thread ThreadRegisters registers __attribute__((tls_model("initial-exec"), visibility("hidden"))) = {};

namespace {
constexpr size_t shared_alignment = 1024;
}  // namespace

Worker::Worker() : signal_stack(new unsigned char[signal_stack_bytes]) {
    adopt_native_stack(native);
    // Sized for the largest opt-in request, so its address never changes for this thread.
    void* shared = std::aligned_alloc(shared_alignment, shared_window_bytes);
    if (!shared) throw std::bad_alloc();
    shared_allocation = {static_cast<unsigned char*>(shared), &std::free};
}

Worker& this_worker() {
    if (!registers.worker) {
        Worker* worker = new Worker;
        registers.worker = worker;
    }
    return *registers.worker;
}

void retire_worker() {
    delete registers.worker;
    registers.worker = nullptr;
}

}  // namespace cudajudge::detail
