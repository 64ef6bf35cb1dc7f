#include "block_run.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>

#include "device_limits.h"
#include "diagnostics.h"
#include "memory_observer.h"
#include "warp_collective.h"
#include "worker.h"

namespace cudajudge::detail {

namespace {

uint64_t mix(uint64_t x) {  // splitmix64
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

std::string hex_mask(unsigned int mask) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%08x", mask);
    return text;
}

}  // namespace

// ---- block lifetime ---------------------------------------------------------------------

void BlockRun::run(GridJob& job, uint64_t linear) {
    const FpControlScope fp_control;
    begin(job, linear);
    worker_.in_block = 1;
    // Faults and misuse found inside a thread jump back here; only members are used after.
    if (sigsetjmp(worker_.recover, 1) == 0) {
        switch_to(next_fiber());
    } else {
        fiber_started();
        worker_.running = &worker_.native;
        running_ = -1;
        if (worker_.fault.signal) {
            job_->fail(linear_, Verdict::runtime_error, fault_kind(worker_.fault), describe_fault(*this, worker_.fault), fault_error(worker_.fault));
            worker_.fault = FaultInfo{};
        }
    }
    worker_.in_block = 0;
    if (observing) observer_block_ends();
    if (!job_->failed_up_to(linear_)) check_shared_guards();
    end();
}

void BlockRun::begin(GridJob& job, uint64_t linear) {
    job_ = &job;
    linear_ = linear;
    block_idx_ = block_coordinates(job.shape.grid, linear);
    threads_ = job.threads_per_block;
    slots_.resize(threads_);
    const dim3& shape = job.shape.block;
    if (shape.x != indexed_.x || shape.y != indexed_.y || shape.z != indexed_.z) {   // not per thread: divisions
        for (unsigned int t = 0; t < threads_; ++t) slots_[t].index = thread_index(static_cast<int>(t));
        indexed_ = shape;
    }
    ready_.resize(threads_);
    ready_head_ = ready_count_ = 0;
    next_start_ = exited_count_ = at_barrier_ = converging_ = 0;

    warps_.resize((threads_ + 31) / 32);
    for (size_t w = 0; w < warps_.size(); ++w) {
        unsigned int lanes = std::min(32u, threads_ - static_cast<unsigned int>(w) * 32);
        warps_[w] = {lanes == 32 ? ~0u : (1u << lanes) - 1, 0, 0};
    }

    if (job.schedule == Schedule::random) {
        order_.resize(threads_);
        rank_.resize(threads_);
        for (unsigned int i = 0; i < threads_; ++i) order_[i] = static_cast<int>(i);
        uint64_t state = mix(job.seed ^ mix(linear));
        for (unsigned int i = threads_ - 1; i > 0; --i) {
            state = mix(state);
            std::swap(order_[i], order_[state % (i + 1)]);
        }
        for (unsigned int i = 0; i < threads_; ++i) rank_[static_cast<size_t>(order_[i])] = i;
    }

    registers_.block_idx = block_idx_;
    registers_.block_dim = job.shape.block;
    registers_.grid_dim = job.shape.grid;
    static_shared_.clear();
    static_shared_used_ = static_shared_bytes_ = 0;
    arm_shared_guards();
    if (observing) observer_block_begins(*this);
}

// Every thread that reaches a declaration looks its variable up; the first of its block places it.
void* BlockRun::static_shared_slot(const SharedShape* shape, const char* name, const char* type) {
    for (const StaticShared& slot : static_shared_)
        if (slot.shape == shape) return slot.address;
    return place_static_shared(shape, name, type);
}

// Variables are laid out in the order threads first reach their declarations, each after a red
// zone that belongs to no variable, so that the observer sees an index just past one of them.
void* BlockRun::place_static_shared(const SharedShape* shape, const char* name, const char* type) {
    constexpr size_t red_zone = 256;
    const size_t align = std::max<size_t>(shape->align, 16);
    const size_t offset = (static_shared_used_ + red_zone + align - 1) / align * align;
    static_shared_bytes_ += shape->bytes;
    if (static_shared_bytes_ > limits::shared_per_block || offset + shape->bytes > Worker::static_shared_bytes)
        fail(Verdict::runtime_error, "launch_config",
             "the __shared__ variables of " + job_->kernel + " take more than the " + std::to_string(limits::shared_per_block / 1024) +
                 " KiB a block may declare statically (`" + name + "`, " + type + ", is one too many); use dynamic shared memory "
                 "(extern __shared__ and the launch's third <<<>>> argument) for more",
             cudaErrorInvalidValue);
    static_shared_used_ = offset + shape->bytes;
    static_shared_.push_back({shape, name, type, worker_.static_shared() + offset});
    return static_shared_.back().address;
}

// What the guards hold: random bytes, made once, so that no value a kernel writes matches them by chance.
static const unsigned char* shared_guard_image() {
    static const std::vector<unsigned char> image = [] {
        std::vector<unsigned char> bytes(2 * Worker::shared_guard_bytes);
        for (size_t i = 0; i < bytes.size(); i += 8) {
            const uint64_t word = mix(0x5eed5eed5eed5eedULL + i);
            std::memcpy(&bytes[i], &word, 8);
        }
        return bytes;
    }();
    return image.data();
}

void BlockRun::arm_shared_guards() {
    unsigned char* shared = worker_.dynamic_shared();
    const size_t guard = Worker::shared_guard_bytes;
    std::memcpy(shared - guard, shared_guard_image(), guard);
    std::memcpy(shared + job_->shape.shared_bytes, shared_guard_image() + guard, guard);
}

void BlockRun::check_shared_guards() {
    const unsigned char* shared = worker_.dynamic_shared();
    const unsigned char* image = shared_guard_image();
    const size_t used = job_->shape.shared_bytes, guard = Worker::shared_guard_bytes;
    const unsigned char* before = shared - guard;
    const unsigned char* after = shared + used;
    if (std::memcmp(before, image, guard) == 0 && std::memcmp(after, image + guard, guard) == 0) return;
    size_t first_after = guard, last_after = 0, changed_after = 0, lowest_before = guard;
    for (size_t i = 0; i < guard; ++i) {
        if (after[i] != image[guard + i]) {
            first_after = std::min(first_after, i);
            last_after = i;
            ++changed_after;
        }
        if (lowest_before == guard && before[i] != image[i]) lowest_before = guard - i;
    }
    const std::string size = "its " + std::to_string(used) + " bytes of dynamic shared memory";
    if (changed_after) {
        const std::string where = changed_after == 1
            ? "byte " + std::to_string(used + first_after) + " changed"
            : std::to_string(changed_after) + " bytes changed between byte " + std::to_string(used + first_after) +
                  " and byte " + std::to_string(used + last_after);
        job_->fail(linear_, Verdict::runtime_error, "shared memory out of bounds",
                   "out-of-bounds write to dynamic shared memory in " + block_text() + ": " + where + ", past the end of " +
                   size + ". Is an index past the end, or the launch's shared-memory size (the third <<<>>> argument, "
                   "in bytes) too small?",
                   cudaErrorIllegalAddress);
    } else if (lowest_before != guard) {
        job_->fail(linear_, Verdict::runtime_error, "shared memory out of bounds",
                   "out-of-bounds write to dynamic shared memory in " + block_text() + ": the lowest byte changed lies " +
                   std::to_string(lowest_before) + " byte(s) before the start of " + size + " (a negative index?)",
                   cudaErrorIllegalAddress);
    }
}

void BlockRun::end() {
    worker_.fibers.release_all();
    if (!printf_.empty() || printf_dropped_) {
        std::stable_sort(printf_.begin(), printf_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        std::string text;
        for (const auto& line : printf_) text += line.second;
        job_->add_printf(linear_, std::move(text), printf_dropped_);
        printf_.clear();
        printf_bytes_ = printf_dropped_ = 0;
    }
}

// ---- schedule order -----------------------------------------------------------------------

int BlockRun::thread_at(unsigned int position) const {
    switch (job_->schedule) {
        case Schedule::forward: return static_cast<int>(position);
        case Schedule::reverse: return static_cast<int>(threads_ - 1 - position);
        case Schedule::random: break;
    }
    return order_[position];
}

unsigned int BlockRun::rank_of(int thread) const {
    switch (job_->schedule) {
        case Schedule::forward: return static_cast<unsigned int>(thread);
        case Schedule::reverse: return threads_ - 1 - static_cast<unsigned int>(thread);
        case Schedule::random: break;
    }
    return rank_[static_cast<size_t>(thread)];
}

uint3 BlockRun::thread_index(int thread) const {
    const dim3& b = job_->shape.block;
    unsigned int t = static_cast<unsigned int>(thread);
    if (b.y == 1 && b.z == 1) return {t, 0, 0};
    return {t % b.x, (t / b.x) % b.y, t / (b.x * b.y)};
}

// ---- switching ----------------------------------------------------------------------------

void BlockRun::load_registers(int thread) {
    if (observing) observer_settle();
    running_ = thread;
    if (thread >= 0) registers_.thread_idx = slots_[static_cast<size_t>(thread)].index;
    registers_.exit_line = 0;
    registers_.exit_kind = exit_unknown;
}

void BlockRun::switch_to(Fiber* next) {
    Fiber* from = worker_.running;
    if (next == from) return;
    worker_.running = next;
    load_registers(next->thread);
    switch_fiber(*from, *next);
}

Fiber* BlockRun::start_runner() { return worker_.fibers.start(&BlockRun::runner_entry, this, job_->stack_bytes); }

// What runs next: a thread ready to resume, else a fresh fiber for the next unstarted thread,
// else whatever settling the block frees; the native stack when the block is over.
Fiber* BlockRun::next_fiber() {
    for (;;) {
        if (ready_count_) {
            ThreadSlot& slot = slots_[static_cast<size_t>(pop_ready())];
            slot.state = ThreadState::running;
            return slot.fiber;
        }
        if (next_start_ < threads_) return start_runner();
        if (!settle()) return &worker_.native;
    }
}

void BlockRun::suspend() { switch_to(next_fiber()); }

void BlockRun::push_ready(int thread) {
    slots_[static_cast<size_t>(thread)].state = ThreadState::ready;
    unsigned int tail = ready_head_ + ready_count_++;
    if (tail >= threads_) tail -= threads_;   // a wrap, not a division: this runs at every barrier, per thread
    ready_[tail] = thread;
}

int BlockRun::pop_ready() {
    int thread = ready_[ready_head_];
    if (++ready_head_ == threads_) ready_head_ = 0;
    --ready_count_;
    return thread;
}

void BlockRun::runner_entry(void* self) {
    fiber_started();
    static_cast<BlockRun*>(self)->run_threads();
}

// A runner fiber runs unstarted threads to completion one after another. When a thread blocks,
// its fiber stays with it; the fiber picks up new threads again once that thread finishes.
void BlockRun::run_threads() {
    Fiber* self = worker_.running;
    while (next_start_ < threads_) {
        int thread = thread_at(next_start_++);
        ThreadSlot& slot = slots_[static_cast<size_t>(thread)];
        slot.state = ThreadState::running;
        slot.fiber = self;
        self->thread = thread;
        load_registers(thread);
        run_one_thread(thread);
        thread_exited(thread);
    }
    worker_.fibers.release(self);
    Fiber* next = next_fiber();
    worker_.running = next;
    load_registers(next->thread);
    leave_fiber(*self, *next);
}

// Device code cannot throw; an exception that escapes a kernel fails the launch. The failure is reported
// after the handler has ended (it leaves the block by a long jump), from a function of its own: this
// frame lies on every fiber's stack, and the message's strings would make it several cache lines deep.
void BlockRun::run_one_thread(int thread) {
    try {
        job_->run_thread(job_->body);
        return;
    } catch (const std::exception& e) {
        escaped_ = e.what();
    } catch (...) {
        escaped_ = "an exception";
    }
    exception_escaped(thread);
}

void BlockRun::exception_escaped(int thread) {
    fail(Verdict::runtime_error, "exception",
         "C++ exception (" + escaped_ + ") thrown in " + block_text() + " " + thread_text(thread) + "; device code cannot throw",
         cudaErrorLaunchFailure);
}

void BlockRun::thread_exited(int thread) {
    ThreadSlot& slot = slots_[static_cast<size_t>(thread)];
    slot.state = ThreadState::exited;
    slot.line = registers_.exit_line;
    slot.exit_kind = registers_.exit_kind;
    ++exited_count_;
    WarpLanes& warp = warps_[static_cast<size_t>(thread / 32)];
    unsigned int bit = 1u << (thread % 32);
    warp.exited |= bit;
    for (unsigned int waiting = warp.waiting; waiting; waiting &= waiting - 1) {
        const ThreadSlot& waiter = slots_[static_cast<size_t>(thread - thread % 32 + __builtin_ctz(waiting))];
        if (waiter.mask & bit) lane_gone(waiter.api, waiter.line, waiter.mask, thread / 32, thread % 32);
    }
}

// ---- rendezvous -----------------------------------------------------------------------------

int BlockRun::barrier(BarrierKind kind, int predicate, const char* api, int line) {
    ThreadSlot& slot = slots_[static_cast<size_t>(running_thread())];
    slot.state = ThreadState::at_barrier;
    slot.barrier = kind;
    slot.api = api;
    slot.line = line;
    if (at_barrier_ == 0) {   // the first to arrive: the others must wait at the same barrier
        barrier_line_ = line;
        barrier_kind_ = kind;
        barrier_uniform_ = true;
        barrier_count_ = 0;
    } else if (line != barrier_line_ || kind != barrier_kind_) {
        barrier_uniform_ = false;
    }
    barrier_count_ += predicate != 0;
    ++at_barrier_;
    suspend();
    return static_cast<int>(slot.result);
}

unsigned long long BlockRun::warp(const WarpCall& call) {
    const int thread = running_thread();
    const int warp_index = thread / 32;
    const int lane = thread % 32;
    WarpLanes& warp = warps_[static_cast<size_t>(warp_index)];
    if (!(call.mask >> lane & 1u)) lane_outside_mask(call, warp_index, lane);
    const unsigned int lanes = call.mask & warp.present;
    if (unsigned int gone = lanes & warp.exited) lane_gone(call.api, call.line, call.mask, warp_index, __builtin_ctz(gone));

    ThreadSlot& slot = slots_[static_cast<size_t>(thread)];
    slot.state = ThreadState::at_warp;
    slot.op = call.op;
    slot.mask = call.mask;
    slot.value = call.value;
    slot.arg = call.arg;
    slot.width = call.width;
    slot.api = call.api;
    slot.line = call.line;
    warp.waiting |= 1u << lane;

    if ((warp.waiting & lanes) == lanes) {
        bool agree = true;
        for (unsigned int rest = lanes; rest && agree; rest &= rest - 1) {
            const ThreadSlot& other = slots_[static_cast<size_t>(warp_index * 32 + __builtin_ctz(rest))];
            agree = other.op == call.op && other.mask == call.mask;
        }
        if (agree) {
            complete_warp_op(warp_index, lanes, thread);
            return slot.result;
        }
    }
    suspend();
    return slot.result;
}

// Misuse reports, apart from the rendezvous that find it: their strings would deepen those frames, which
// lie on every fiber's stack (a lane waiting at a warp primitive keeps warp()'s while it waits).
void BlockRun::lane_outside_mask(const WarpCall& call, int warp_index, int lane) {
    warp_misuse(call.api, call.line, call.mask, warp_index, "lane " + std::to_string(lane) + " is active and not in the mask");
}

void BlockRun::lane_gone(const char* api, int line, unsigned int mask, int warp_index, int lane) {
    const ThreadSlot& left = slots_[static_cast<size_t>(warp_index * 32 + lane)];
    warp_misuse(api, line, mask, warp_index, "lane " + std::to_string(lane) + " " + exit_text(left.exit_kind, left.line) + " and can never join");
}

void BlockRun::complete_warp_op(int warp_index, unsigned int lanes, int current) {
    ThreadSlot* base = &slots_[static_cast<size_t>(warp_index * 32)];
    if (observing && base[__builtin_ctz(lanes)].op == WarpOp::sync) observer_warp_synced(warp_index, lanes);
    exchange_in_warp(base, lanes);
    warps_[static_cast<size_t>(warp_index)].waiting &= ~lanes;
    int woken[32];
    int count = 0;
    for (unsigned int rest = lanes; rest; rest &= rest - 1) {
        int thread = warp_index * 32 + __builtin_ctz(rest);
        if (thread != current) woken[count++] = thread;
    }
    slots_[static_cast<size_t>(current)].state = ThreadState::running;
    wake_in_order(woken, count);
}

unsigned int BlockRun::converged(int line) {
    ThreadSlot& slot = slots_[static_cast<size_t>(running_thread())];
    slot.state = ThreadState::converging;
    slot.line = line;
    ++converging_;
    suspend();
    return static_cast<unsigned int>(slot.result);
}

void BlockRun::yield() {
    const bool others_ready = ready_count_ > 0;
    if (!others_ready && next_start_ >= threads_) return;
    push_ready(running_thread());
    switch_to(others_ready ? next_fiber() : start_runner());
}

void BlockRun::wake_in_order(int* threads, int count) {
    if (job_->schedule != Schedule::forward)   // in forward order, increasing index is schedule order
        std::sort(threads, threads + count, [this](int a, int b) { return rank_of(a) < rank_of(b); });
    for (int i = 0; i < count; ++i) push_ready(threads[i]);
}

// Nothing can run: every thread has exited or waits. Returns whether waiting threads could be
// released; when not, the block is over, either complete or stuck (and the job failed).
bool BlockRun::settle() {
    if (exited_count_ == threads_) return false;
    if (converging_) {
        release_converged();
        return true;
    }
    if (at_barrier_ + exited_count_ == threads_ && exited_count_ == 0 && barrier_uniform_) {
        release_barrier();
        return true;
    }
    const bool divergence = at_barrier_ + exited_count_ == threads_;
    job_->fail(linear_, divergence ? Verdict::runtime_error : Verdict::deadlock, divergence ? "barrier_divergence" : "deadlock",
               describe_stall(*this, divergence), divergence ? cudaErrorLaunchFailure : cudaErrorLaunchTimeout);
    return false;
}

void BlockRun::release_barrier() {
    const unsigned long long count = barrier_count_;
    unsigned long long result = 0;
    switch (barrier_kind_) {
        case BarrierKind::plain: result = 0; break;
        case BarrierKind::count: result = count; break;
        case BarrierKind::all: result = count == threads_; break;
        case BarrierKind::any: result = count != 0; break;
    }
    at_barrier_ = 0;
    if (observing) observer_barrier_released();
    for (unsigned int position = 0; position < threads_; ++position) {
        int thread = thread_at(position);
        slots_[static_cast<size_t>(thread)].result = result;
        push_ready(thread);
    }
}

// Lanes of a warp waiting at __activemask on the same line converged there together.
void BlockRun::release_converged() {
    for (size_t w = 0; w < warps_.size(); ++w) {
        ThreadSlot* base = &slots_[w * 32];
        unsigned int lanes = warps_[w].present;
        for (unsigned int l = 0; l < 32; ++l) {
            if (!(lanes >> l & 1u) || base[l].state != ThreadState::converging) continue;
            unsigned int group = 0;
            for (unsigned int m = l; m < 32; ++m)
                if ((lanes >> m & 1u) && base[m].state == ThreadState::converging && base[m].line == base[l].line) group |= 1u << m;
            int woken[32];
            int count = 0;
            for (unsigned int rest = group; rest; rest &= rest - 1) {
                int lane = __builtin_ctz(rest);
                base[lane].result = group;
                woken[count++] = static_cast<int>(w * 32) + lane;
            }
            wake_in_order(woken, count);
        }
    }
    converging_ = 0;
}

// ---- errors and text ------------------------------------------------------------------------

void BlockRun::record_failure(Verdict verdict, const char* kind, const std::string& what, cudaError_t error) {
    job_->fail(linear_, verdict, kind, what + " (" + job_->launch_text() + ")", error);
}

void BlockRun::fail(Verdict verdict, const char* kind, const std::string& what, cudaError_t error) {
    record_failure(verdict, kind, what, error);
    before_jump_to(worker_.native);
    siglongjmp(worker_.recover, 1);
}

void BlockRun::warp_misuse(const char* api, int line, unsigned int mask, int warp_index, const std::string& problem) {
    fail(Verdict::runtime_error, "warp_misuse",
         "warp-primitive misuse in " + block_text() + ": warp " + std::to_string(warp_index) + ": " + api + " on line " +
             std::to_string(line) + " with mask " + hex_mask(mask) + ", but " + problem,
         cudaErrorLaunchFailure);
}

void BlockRun::kernel_printf(std::string text) {
    if (job_->printf_full(printf_bytes_ + text.size())) {
        printf_dropped_ += text.size();
        return;
    }
    printf_bytes_ += text.size();
    printf_.emplace_back(running_thread(), std::move(text));
}

std::string BlockRun::block_text() const { return job_->kernel + " block " + coordinates(block_idx_); }

std::string BlockRun::thread_text(int thread) const { return "thread " + coordinates(thread_index(thread)); }

}  // namespace cudajudge::detail
