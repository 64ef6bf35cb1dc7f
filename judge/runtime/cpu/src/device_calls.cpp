// Entry points that device code calls (barriers, warp primitives, traps), forwarded to the
// block scheduler of the calling OS thread.
#include "block_run.h"
#include "runtime.h"
#include "worker.h"

namespace cudajudge::detail {

int block_barrier(BarrierKind kind, int predicate, const char* api, int line) {
    BlockRun* block = running_block();
    return block ? block->barrier(kind, predicate, api, line) : predicate;
}

unsigned long long warp_exchange(const WarpCall& call) {
    BlockRun* block = running_block();
    return block ? block->warp(call) : call.value;
}

unsigned int converged_lanes(int line) {
    BlockRun* block = running_block();
    return block ? block->converged(line) : 1u;
}

void yield_thread(int) {
    if (BlockRun* block = running_block()) block->yield();
}

void* static_shared_slot(const SharedShape* shape, const char* name, const char* type) {
    BlockRun* block = running_block();
    if (block) return block->static_shared_slot(shape, name, type);
    return this_worker().static_shared();   // host code has no shared memory; never reached from a kernel
}

void* dynamic_shared_named(const char* name, size_t element) {
    Worker& worker = this_worker();
    worker.dynamic_name = name;
    worker.dynamic_element = element;
    return worker.dynamic_shared();
}

void contended(int line) { yield_thread(line); }

void trap(const char* what, int line) {
    BlockRun* block = running_block();
    if (!block) std::abort();
    block->fail(Verdict::runtime_error, "trap",
                std::string(what) + " on line " + std::to_string(line) + " in " + block->block_text() + " " +
                    block->thread_text(block->running_thread()),
                cudaErrorLaunchFailure);
}

}  // namespace cudajudge::detail
