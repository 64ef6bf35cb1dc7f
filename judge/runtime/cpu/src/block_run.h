// Runs the threads of one block as fibers on the calling OS thread, one at a time.
//
// Threads start in schedule order and each runs until it finishes or blocks at a rendezvous
// (__syncthreads, a warp primitive, __activemask); a finished thread's fiber goes straight on
// to the next unstarted thread, so a barrier-free block costs one switch in and one out.
// When nothing can run, the block settles: it releases a complete barrier, hands out
// __activemask results, or reports why the block can never finish.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "fiber.h"
#include "grid_job.h"

namespace cudajudge::detail {

struct Worker;

enum class ThreadState : unsigned char { unstarted, running, ready, at_barrier, at_warp, converging, exited };

struct ThreadSlot {
    ThreadState state;
    BarrierKind barrier;
    WarpOp op;
    int exit_kind;                // ExitKind, once exited
    int line;                     // where the thread waits, or where it left the kernel
    unsigned int mask;            // of the warp primitive it waits at
    int arg;
    int width;
    const char* api;
    unsigned long long value;     // its operand or predicate
    unsigned long long result;    // what the rendezvous hands back
    Fiber* fiber;
    uint3 index;                  // threadIdx
};

// A `__shared__` variable of the running block, where the block's layout put it.
struct StaticShared {
    const SharedShape* shape;
    const char* name;
    const char* type;
    unsigned char* address;
};

struct WarpLanes {
    unsigned int present;  // lanes that exist (the last warp of a block may be partial)
    unsigned int exited;
    unsigned int waiting;  // lanes blocked at a warp primitive
};

class BlockRun {
public:
    // Constructed on the OS thread that will use it.
    explicit BlockRun(Worker& worker) : worker_(worker), registers_(registers) {}

    // Runs every thread of block `linear`; errors go to the job.
    void run(GridJob& job, uint64_t linear);

    // Called by the running emulated thread.
    int barrier(BarrierKind kind, int predicate, const char* api, int line);
    unsigned long long warp(const WarpCall& call);
    unsigned int converged(int line);
    void yield();
    void kernel_printf(std::string text);
    void* static_shared_slot(const SharedShape* shape, const char* name, const char* type);
    // Fails the launch; the running thread carries on.
    void record_failure(Verdict verdict, const char* kind, const std::string& what, cudaError_t error);
    // Fails the launch and abandons the block.
    [[noreturn]] void fail(Verdict verdict, const char* kind, const std::string& what, cudaError_t error);
    [[noreturn]] void warp_misuse(const char* api, int line, unsigned int mask, int warp_index, const std::string& problem);

    // For diagnostics.
    const GridJob& job() const { return *job_; }
    const Worker& worker() const { return worker_; }
    uint64_t linear() const { return linear_; }
    const std::vector<StaticShared>& static_shared() const { return static_shared_; }
    unsigned int thread_count() const { return threads_; }
    const ThreadSlot& slot(int thread) const { return slots_[static_cast<size_t>(thread)]; }
    int running_thread() const { return running_; }
    std::string block_text() const;           // "scan block (3,0,0)"
    std::string thread_text(int thread) const;  // "thread (5,0,0)"
    uint3 thread_index(int thread) const;

private:
    static void runner_entry(void* self);
    [[noreturn]] void run_threads();
    void begin(GridJob& job, uint64_t linear);
    // Apart from the lookup, which every thread makes: its message's strings would deepen the lookup's frame.
    [[gnu::noinline]] void* place_static_shared(const SharedShape* shape, const char* name, const char* type);
    // Guard bytes before and after the block's dynamic shared memory: out-of-bounds writes there
    // fail the launch when the block ends (reads, and writes beyond the guards, are not seen).
    void arm_shared_guards();
    void check_shared_guards();
    void end();

    int thread_at(unsigned int position) const;
    unsigned int rank_of(int thread) const;
    void load_registers(int thread);
    void switch_to(Fiber* next);
    Fiber* next_fiber();
    Fiber* start_runner();
    void suspend();
    void push_ready(int thread);
    int pop_ready();
    void run_one_thread(int thread);
    [[noreturn, gnu::noinline, gnu::cold]] void exception_escaped(int thread);
    void thread_exited(int thread);

    bool settle();
    void release_barrier();
    void release_converged();
    void complete_warp_op(int warp, unsigned int lanes, int current);
    [[noreturn, gnu::noinline, gnu::cold]] void lane_outside_mask(const WarpCall& call, int warp_index, int lane);
    [[noreturn, gnu::noinline, gnu::cold]] void lane_gone(const char* api, int line, unsigned int mask, int warp_index, int lane);
    // Makes `threads`, given in increasing index order, ready in schedule order.
    void wake_in_order(int* threads, int count);

    Worker& worker_;
    ThreadRegisters& registers_;  // this OS thread's, without a TLS lookup on every switch
    GridJob* job_ = nullptr;
    uint64_t linear_ = 0;
    uint3 block_idx_{};
    unsigned int threads_ = 0;
    int running_ = -1;                // the thread whose registers are loaded (its fiber's, kept here: read
                                      // at every rendezvous, and the fibers lie apart in memory); -1: none
    std::vector<ThreadSlot> slots_;
    dim3 indexed_{0, 0, 0};          // the block shape whose threadIdx the slots hold
    std::vector<WarpLanes> warps_;
    std::vector<int> order_;         // schedule position -> thread, for non-forward orders
    std::vector<unsigned int> rank_;  // thread -> schedule position, for non-forward orders
    std::vector<int> ready_;          // ring buffer of threads ready to resume
    unsigned int ready_head_ = 0;
    unsigned int ready_count_ = 0;
    unsigned int next_start_ = 0;
    unsigned int exited_count_ = 0;
    unsigned int at_barrier_ = 0;
    // The barrier the waiting threads are at, as the first of them arrived, whether every later one
    // arrived at the same one, and how many arrived with a true predicate.
    int barrier_line_ = 0;
    BarrierKind barrier_kind_ = BarrierKind::plain;
    bool barrier_uniform_ = true;
    unsigned int barrier_count_ = 0;
    unsigned int converging_ = 0;
    std::vector<StaticShared> static_shared_;
    size_t static_shared_used_ = 0;   // bytes of the static area taken, red zones included
    size_t static_shared_bytes_ = 0;  // bytes of the variables themselves
    std::string escaped_;             // what an exception that left a kernel said
    std::vector<std::pair<int, std::string>> printf_;  // (thread, text), in the order written
    size_t printf_bytes_ = 0;
    uint64_t printf_dropped_ = 0;
};

}  // namespace cudajudge::detail
