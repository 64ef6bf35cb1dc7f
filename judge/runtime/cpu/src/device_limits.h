// The emulated device: what a CPU build reports and enforces (a Hopper-class GPU).
#pragma once

#include <cstddef>

namespace cudajudge::detail::limits {

constexpr int multiprocessors = 132;
constexpr int warp_size = 32;
constexpr int max_threads_per_block = 1024;
constexpr unsigned int max_block_dim[3] = {1024, 1024, 64};
constexpr unsigned long long max_grid_dim[3] = {2147483647ULL, 65535, 65535};
constexpr size_t shared_per_block = 48 * 1024;
constexpr size_t shared_per_block_optin = 227 * 1024;
constexpr size_t shared_per_multiprocessor = 228 * 1024;
constexpr size_t shared_reserved_per_block = 1024;
constexpr int max_threads_per_multiprocessor = 2048;
constexpr int max_blocks_per_multiprocessor = 32;
constexpr int registers_per_block = 65536;
constexpr int registers_per_multiprocessor = 65536;
constexpr int assumed_registers_per_thread = 32;
constexpr int l2_cache_bytes = 50 * 1024 * 1024;
constexpr size_t constant_memory = 64 * 1024;
constexpr int compute_major = 9;
constexpr int compute_minor = 0;
constexpr int clock_khz = 1980000;
constexpr int memory_clock_khz = 2619000;
constexpr int memory_bus_width = 5120;

}  // namespace cudajudge::detail::limits
