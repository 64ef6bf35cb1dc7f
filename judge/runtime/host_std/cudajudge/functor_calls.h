// Device-wide algorithms that run a functor of the user's: the functor runs in one of the judge's
// kernels (functor_kernels.h), launched like the user's own kernels and shown under the algorithm's
// name; what follows it (a reduction, a selection) is an ordinary device-wide algorithm call.
#pragma once

#include "device_algorithms.h"
#include "functor_kernels.h"

namespace cudajudge::algorithms {

constexpr unsigned functor_block_threads = 256;
constexpr long long functor_max_blocks = 4096;

inline dim3 functor_grid(long long n) {
    long long blocks = (n + functor_block_threads - 1) / functor_block_threads;
    return dim3(static_cast<unsigned>(blocks < functor_max_blocks ? blocks : functor_max_blocks));
}

template <class Kernel, class Run>
inline void launch_functor_kernel(Kernel kernel, const char* name, long long n, int line, Run run) {
    if (n <= 0) return;
#ifdef CUDAJUDGE_KERNEL_STUBS
    (void)name;
    run(::cudajudge::launch(kernel, functor_grid(n), dim3(functor_block_threads), 0, nullptr, line));
#else
    auto body = [&]() __attribute__((no_sanitize("thread"))) { run(kernel); };
    ::cudajudge::detail::launch_grid(reinterpret_cast<const void*>(kernel), name,
                                     {functor_grid(n), dim3(functor_block_threads), 0, line},
                                     &::cudajudge::detail::run_body<decltype(body)>, &body);
#endif
}

// out[i] = op(in[i]).
template <class Shown, class Op, class In, class Out>
inline void map(const char* name, int line, Op op, const In* in, Out* out, long long n) {
    launch_functor_kernel(&map_kernel<Shown, Op, In, Out>, name, n, line,
                          [&](auto kernel) { kernel(op, in, out, n); });
}

// out[i] = op(a[i], b[i]).
template <class Shown, class Op, class A, class B, class Out>
inline void zip(const char* name, int line, Op op, const A* a, const B* b, Out* out, long long n) {
    launch_functor_kernel(&zip_kernel<Shown, Op, A, B, Out>, name, n, line,
                          [&](auto kernel) { kernel(op, a, b, out, n); });
}

// Device memory the judge's host library allocates, fills and copies for the user (Thrust's scratch
// arrays, thrust::device_vector), as the user's own calls on `line` would: from the same memory as their
// cudaMalloc, counted and checked as theirs.
#ifdef CUDAJUDGE_KERNEL_STUBS
#define CUDAJUDGE_USER_CALL(NAME, LINE, ...) (::cudajudge::at_line(LINE), (NAME)(__VA_ARGS__))
#else
#define CUDAJUDGE_USER_CALL(NAME, LINE, ...) NAME(__VA_ARGS__, LINE)
#endif
inline cudaError_t device_malloc(void** ptr, size_t bytes, int line) {
    return CUDAJUDGE_USER_CALL(cudaMalloc, line, ptr, bytes);
}
inline cudaError_t device_free(void* ptr, int line) { return CUDAJUDGE_USER_CALL(cudaFree, line, ptr); }
inline cudaError_t device_copy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, int line) {
    return CUDAJUDGE_USER_CALL(cudaMemcpy, line, dst, src, bytes, kind);
}
inline cudaError_t device_zero(void* ptr, size_t bytes, int line) {
    return CUDAJUDGE_USER_CALL(cudaMemset, line, ptr, 0, bytes);
}
#undef CUDAJUDGE_USER_CALL

// Device memory an algorithm needs for its intermediate result (mapped items, flags), as Thrust
// allocates it, freed when the call returns.
template <class T>
class Scratch {
public:
    Scratch(long long count, int line) : line_(line) {
        if (count > 0) status_ = device_malloc(reinterpret_cast<void**>(&data_), static_cast<size_t>(count) * sizeof(T), line);
    }
    ~Scratch() {
        if (data_ != nullptr) device_free(data_, line_);
    }
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;

    T* get() const { return data_; }
    cudaError_t status() const { return status_; }

private:
    T* data_ = nullptr;
    cudaError_t status_ = cudaSuccess;
    int line_;
};

}  // namespace cudajudge::algorithms
