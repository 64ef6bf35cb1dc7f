#include "error_state.h"

#include <atomic>

namespace cudajudge::detail {

namespace {
std::atomic<int> last_error{cudaSuccess};
std::atomic<int> sticky{cudaSuccess};
}  // namespace

cudaError_t note_error(cudaError_t error) {
    if (error != cudaSuccess) last_error.store(error);
    return error;
}

cudaError_t take_last_error() {
    if (int error = sticky.load()) return static_cast<cudaError_t>(error);
    return static_cast<cudaError_t>(last_error.exchange(cudaSuccess));
}

cudaError_t peek_last_error() {
    if (int error = sticky.load()) return static_cast<cudaError_t>(error);
    return static_cast<cudaError_t>(last_error.load());
}

void set_sticky_error(cudaError_t error) {
    int expected = cudaSuccess;
    sticky.compare_exchange_strong(expected, error);
    note_error(error);
}

cudaError_t sticky_error() { return static_cast<cudaError_t>(sticky.load()); }

void reset_errors() {
    last_error.store(cudaSuccess);
    sticky.store(cudaSuccess);
}

}  // namespace cudajudge::detail
