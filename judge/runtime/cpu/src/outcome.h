// What a call of solve() leaves for the harness: the first error and its verdict class, the
// launch log, and the printf output of kernels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>

namespace cudajudge::detail {

// Mirrors CUDAJUDGE_CPU_* in cudajudge_cpu_abi.h.
enum class Verdict : int { ok = 0, runtime_error = 1, memory_limit = 2, deadlock = 3, wrong_answer = 4 };

// The block of an error found outside any one block (host code, guard bytes after a launch).
inline constexpr uint64_t no_block = UINT64_MAX;

struct LaunchRecord {
    std::string kernel;
    unsigned int grid[3];
    unsigned int block[3];
    uint64_t shared_bytes;
    int line;
    int status;  // cudaError_t of the launch
};

class Outcome {
public:
    // The first error decides the verdict: later ones are usually its consequences. Within one
    // launch, whose blocks run at once, an error of a lower block (`block`, linear) replaces one
    // of a higher block, so that the error kept does not depend on the OS threads' timing.
    void record_error(Verdict verdict, const char* kind, std::string message, long launch = -1, uint64_t block = no_block);
    long add_launch(LaunchRecord record);
    void set_launch_status(long index, int status);
    // Appends kernel output, keeping at most the printf cap; returns how many bytes fit.
    size_t append_printf(std::string_view text);
    void drop_printf(uint64_t bytes);
    size_t printf_room() const;
    void reset();

    Verdict verdict() const;
    const char* error_kind() const;
    const char* error_message() const;
    long error_launch() const;
    uint64_t launch_count() const;
    const LaunchRecord* launch(uint64_t index) const;
    uint64_t printf_size() const;
    uint64_t printf_copy(char* out, uint64_t capacity) const;
    uint64_t printf_dropped() const;

private:
    static constexpr size_t kept_launches = 100000;

    mutable std::mutex mutex_;
    Verdict verdict_ = Verdict::ok;
    std::string kind_;
    std::string message_;
    long error_launch_ = -1;
    uint64_t error_block_ = no_block;
    std::deque<LaunchRecord> launches_;  // a deque: records never move, so names handed out stay valid
    uint64_t launch_count_ = 0;
    std::string printf_;
    uint64_t printf_dropped_ = 0;
};

Outcome& outcome();

}  // namespace cudajudge::detail
