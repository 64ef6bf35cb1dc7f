#include "worker_pool.h"

#include <sched.h>

#include <algorithm>
#include <cstdlib>

#include "fault_handler.h"
#include "settings.h"
#include "worker.h"

namespace cudajudge::detail {

namespace {

int default_threads() {
    if (const char* env = std::getenv("CUDAJUDGE_CPU_THREADS")) {
        int count = std::atoi(env);
        if (count > 0) return count;
    }
    // The cores this process may run on, which a sandbox may limit below the machine's count.
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) == 0) return std::max(1, CPU_COUNT(&allowed));
    unsigned int cores = std::thread::hardware_concurrency();
    return cores ? static_cast<int>(cores) : 1;
}

}  // namespace

WorkerPool& worker_pool() {
    static WorkerPool* pool = new WorkerPool;  // never destroyed: helpers may still be parked at exit
    return *pool;
}

void WorkerPool::work(GridJob& job) {
    Worker& worker = this_worker();
    uint64_t block;
    while (job.take_block(&block)) worker.block.run(job, block);
}

void WorkerPool::run(GridJob& job) {
    std::lock_guard<std::mutex> one_launch_at_a_time(launch_mutex_);
    ensure_started();
    SignalStackScope signal_stack(this_worker());
    if (helpers_.empty() || job.blocks == 1 || settings().observe) {   // observed blocks run one at a time
        work(job);
        return;
    }
    {
        std::lock_guard<std::mutex> lock(mutex_);
        job_ = &job;
        ++generation_;
        busy_ = static_cast<int>(helpers_.size());
    }
    wake_.notify_all();
    work(job);
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return busy_ == 0; });
    job_ = nullptr;
}

void WorkerPool::helper_main(uint64_t seen) {
    {
        SignalStackScope signal_stack(this_worker());
        std::unique_lock<std::mutex> lock(mutex_);
        for (;;) {
            wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
            if (stopping_) break;
            seen = generation_;
            GridJob* job = job_;
            lock.unlock();
            work(*job);
            lock.lock();
            if (--busy_ == 0) done_.notify_all();
        }
    }
    retire_worker();
}

void WorkerPool::ensure_started() {
    if (threads_ == 0) restart(0);
}

void WorkerPool::stop_helpers() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (auto& helper : helpers_) helper.join();
    helpers_.clear();
    stopping_ = false;
}

void WorkerPool::set_threads(int count) {
    std::lock_guard<std::mutex> lock(launch_mutex_);
    restart(count);
}

void WorkerPool::restart(int count) {
    stop_helpers();
    threads_ = count > 0 ? count : default_threads();
    for (int i = 1; i < threads_; ++i) helpers_.emplace_back(&WorkerPool::helper_main, this, generation_);
}

int WorkerPool::threads() {
    std::lock_guard<std::mutex> lock(launch_mutex_);
    ensure_started();
    return threads_;
}

}  // namespace cudajudge::detail
