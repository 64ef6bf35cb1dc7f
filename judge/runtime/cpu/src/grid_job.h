// One kernel launch in flight: its shape, its body, the next block to hand out, and what
// went wrong, shared by every OS thread that runs its blocks.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "outcome.h"
#include "runtime.h"
#include "settings.h"

namespace cudajudge::detail {

// "scan<<<4, 256>>> on line 40", as the user wrote the launch.
std::string describe_launch(const std::string& kernel, const LaunchShape& shape);
// "(3,0,0)"
std::string coordinates(const uint3& v);
// blockIdx of the block numbered `linear` (x fastest) in `grid`.
uint3 block_coordinates(const dim3& grid, uint64_t linear);

class GridJob {
public:
    GridJob(std::string kernel, long launch_index, const LaunchShape& shape, void (*run_thread)(const void*), const void* body);

    const std::string kernel;
    const long launch_index;
    const LaunchShape shape;
    const uint64_t blocks;
    const unsigned int threads_per_block;
    void (*const run_thread)(const void*);
    const void* const body;
    const Schedule schedule;
    const uint64_t seed;
    const size_t stack_bytes;

    // The next block to run, or none when the launch is over or has failed.
    bool take_block(uint64_t* block);
    // Records an error of block `block`; blocks not yet started are not run. Of the errors of
    // blocks running at once, the lowest block's is kept, so the message does not depend on
    // which OS thread got there first (every lower block was started before it, and finishes).
    void fail(uint64_t block, Verdict verdict, const char* kind, std::string message, cudaError_t error);
    bool failed() const { return failed_block_.load(std::memory_order_relaxed) != no_block; }
    // Whether block `block` or a lower one has failed.
    bool failed_up_to(uint64_t block) const { return failed_block_.load(std::memory_order_relaxed) <= block; }
    cudaError_t error() const { return error_; }

    // Kernel printf, gathered per block and written out in block order when the launch ends,
    // where the cap cuts it. Gathering stops well past the cap, to bound memory in a flood.
    bool printf_full(size_t pending) const { return printf_bytes_.load(std::memory_order_relaxed) + pending > printf_limit_; }
    void add_printf(uint64_t block, std::string text, uint64_t dropped);
    void flush_printf();

    std::string launch_text() const { return describe_launch(kernel, shape); }

private:
    std::atomic<uint64_t> next_block_{0};
    std::atomic<uint64_t> failed_block_{no_block};
    std::mutex mutex_;
    cudaError_t error_ = cudaSuccess;
    const size_t printf_limit_;
    std::atomic<size_t> printf_bytes_{0};
    uint64_t printf_dropped_ = 0;
    std::vector<std::pair<uint64_t, std::string>> printf_;
};

}  // namespace cudajudge::detail
