#include "grid_job.h"

#include <algorithm>

namespace cudajudge::detail {

GridJob::GridJob(std::string kernel_name, long index, const LaunchShape& launch_shape, void (*thread_fn)(const void*),
                 const void* thread_body)
    : kernel(std::move(kernel_name)),
      launch_index(index),
      shape(launch_shape),
      blocks(uint64_t{launch_shape.grid.x} * launch_shape.grid.y * launch_shape.grid.z),
      threads_per_block(launch_shape.block.x * launch_shape.block.y * launch_shape.block.z),
      run_thread(thread_fn),
      body(thread_body),
      schedule(settings().schedule),
      seed(settings().seed),
      stack_bytes(settings().stack_bytes),
      printf_limit_(2 * outcome().printf_room() + (size_t{1} << 20)) {}

bool GridJob::take_block(uint64_t* block) {
    if (failed()) return false;
    *block = next_block_.fetch_add(1, std::memory_order_relaxed);
    return *block < blocks;
}

void GridJob::fail(uint64_t block, Verdict verdict, const char* kind, std::string message, cudaError_t cuda_error) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (failed_up_to(block)) return;
    error_ = cuda_error;
    failed_block_.store(block, std::memory_order_relaxed);
    outcome().record_error(verdict, kind, std::move(message), launch_index, block);
}

void GridJob::add_printf(uint64_t block, std::string text, uint64_t dropped) {
    std::lock_guard<std::mutex> lock(mutex_);
    printf_dropped_ += dropped;
    if (text.empty()) return;
    printf_bytes_.fetch_add(text.size(), std::memory_order_relaxed);
    printf_.emplace_back(block, std::move(text));
}

void GridJob::flush_printf() {
    std::stable_sort(printf_.begin(), printf_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [block, text] : printf_) outcome().append_printf(text);
    outcome().drop_printf(printf_dropped_);
    printf_.clear();
}

std::string coordinates(const uint3& v) {
    return "(" + std::to_string(v.x) + "," + std::to_string(v.y) + "," + std::to_string(v.z) + ")";
}

uint3 block_coordinates(const dim3& grid, uint64_t linear) {
    return {static_cast<unsigned int>(linear % grid.x), static_cast<unsigned int>((linear / grid.x) % grid.y),
            static_cast<unsigned int>(linear / (uint64_t{grid.x} * grid.y))};
}

std::string describe_launch(const std::string& kernel, const LaunchShape& shape) {
    auto dim = [](const dim3& d) { return d.y == 1 && d.z == 1 ? std::to_string(d.x) : coordinates(d); };
    std::string text = kernel + "<<<" + dim(shape.grid) + ", " + dim(shape.block);
    if (shape.shared_bytes) text += ", " + std::to_string(shape.shared_bytes);
    return text + ">>> on line " + std::to_string(shape.line);
}

}  // namespace cudajudge::detail
