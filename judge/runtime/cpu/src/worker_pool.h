// The OS threads that run blocks: the launching thread plus helpers, which take blocks from a
// launch one at a time until none are left.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "grid_job.h"

namespace cudajudge::detail {

class WorkerPool {
public:
    // Runs every block of the launch; returns when all are done.
    void run(GridJob& job);
    // How many OS threads run blocks, the launching thread included; 0 means the default
    // (CUDAJUDGE_CPU_THREADS, else the number of cores).
    void set_threads(int count);
    int threads();

private:
    void ensure_started();
    void restart(int count);
    void stop_helpers();
    // A helper runs the jobs published after generation `seen`.
    void helper_main(uint64_t seen);
    static void work(GridJob& job);

    std::mutex launch_mutex_;  // launches and reconfiguration, one at a time
    std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable done_;
    std::vector<std::thread> helpers_;
    int threads_ = 0;  // 0 until started
    GridJob* job_ = nullptr;
    uint64_t generation_ = 0;
    int busy_ = 0;
    bool stopping_ = false;
};

WorkerPool& worker_pool();

}  // namespace cudajudge::detail
