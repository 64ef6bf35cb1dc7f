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
    Worker* worker;                 // this OS thread's block runner, once it has run a block
};

enum ExitKind : int { exit_unknown = 0, exit_return = 1, exit_end = 2 };

// Initial-exec: a kernel reads its registers with one %fs-relative load, not a __tls_get_addr call. A
// library loaded at run time takes its block from the process's spare static TLS, which has room for a
// few dozen CPU builds; a runner loads two (plain and observed).
extern __thread ThreadRegisters registers __attribute__((tls_model("initial-exec"), visibility("hidden")));

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

namespace detail {

// The type of a `__shared__` variable declared inside a function, as the build rewrote it: its
// size and alignment for the block's layout, its shape for diagnostics. One per variable.
struct SharedShape {
    size_t bytes;
    size_t align;
    size_t element;        // bytes of one element of the innermost array
    int rank;              // array dimensions (0 for a scalar or struct)
    size_t extent[4];
};

// Where the running block keeps the variable of `shape` (named `name`, of type `type` as written):
// the same address for every thread of the block, fresh (uninitialized) for each block.
void* static_shared_slot(const SharedShape* shape, const char* name, const char* type);
// The running block's dynamic shared memory, named for diagnostics by the array that declares it.
void* dynamic_shared_named(const char* name, size_t element);

}  // namespace detail

// What `extern __shared__ T name[];` becomes: the running block's dynamic shared memory.
template <class T>
inline T* dynamic_shared(const char* name) {
    return static_cast<T*>(detail::dynamic_shared_named(name, sizeof(T)));
}

// What `__shared__ T name;` inside a function becomes: `auto& name = static_shared<T, site>(...)`.
// `Site` (one per declaration in the file) and T together make one SharedShape per variable.
template <class T, int Site>
inline T& static_shared(const char* name, const char* type) {
    using Element = std::remove_all_extents_t<T>;
    static constexpr detail::SharedShape shape{sizeof(T), alignof(T), sizeof(Element), static_cast<int>(std::rank_v<T>),
                                               {std::extent_v<T, 0>, std::extent_v<T, 1>, std::extent_v<T, 2>, std::extent_v<T, 3>}};
    return *static_cast<T*>(detail::static_shared_slot(&shape, name, type));
}

}  // namespace cudajudge
