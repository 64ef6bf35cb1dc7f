// threadIdx, blockIdx, blockDim, gridDim and warpSize.
#pragma once

namespace cudajudge::detail {

struct Worker;

// The coordinates of the emulated thread running on this OS thread. The block scheduler
// rewrites them at every switch between emulated threads. Not initial-exec: a library with any
// initial-exec TLS must fit all its TLS (every __shared__ array) in the small static TLS area.
struct ThreadRegisters {
    uint3 thread_idx;
    uint3 block_idx;
    dim3 block_dim;
    dim3 grid_dim;
    int exit_line;                  // where the running thread last left its kernel
    int exit_kind;                  // ExitKind
    unsigned char* dynamic_shared;  // this OS thread's block-local dynamic shared memory
    Worker* worker;                 // this OS thread's block runner, once it has run a block
};

enum ExitKind : int { exit_unknown = 0, exit_return = 1, exit_end = 2 };

extern __thread ThreadRegisters registers __attribute__((tls_model("local-dynamic"), visibility("hidden")));

}  // namespace cudajudge::detail

#define threadIdx (static_cast<const uint3&>(::cudajudge::detail::registers.thread_idx))
#define blockIdx (static_cast<const uint3&>(::cudajudge::detail::registers.block_idx))
#define blockDim (static_cast<const dim3&>(::cudajudge::detail::registers.block_dim))
#define gridDim (static_cast<const dim3&>(::cudajudge::detail::registers.grid_dim))

inline constexpr int warpSize = 32;

namespace cudajudge {

// Kernel exits, inserted by the build before each `return` and the closing brace of a
// __global__ function so that diagnostics can say where a thread left.
inline void kernel_return(int line) {
    detail::registers.exit_line = line;
    detail::registers.exit_kind = detail::exit_return;
}
inline void kernel_end(int line) {
    detail::registers.exit_line = line;
    detail::registers.exit_kind = detail::exit_end;
}

// What `extern __shared__ T name[];` becomes: the running block's dynamic shared memory.
template <class T>
inline T* dynamic_shared() {
    return reinterpret_cast<T*>(detail::registers.dynamic_shared);
}

}  // namespace cudajudge
