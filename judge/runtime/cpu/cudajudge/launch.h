// Kernel launches. The build rewrites `k<<<grid, block, smem, stream>>>(args)` into
// `cudajudge::launch(k, grid, block, smem, stream, __LINE__)(args)`: the returned launcher's
// call operator takes exactly the kernel's parameter types, so arguments convert as they
// would for nvcc, and it runs the whole grid before returning.
#pragma once

namespace cudajudge {

namespace detail {

struct LaunchShape {
    dim3 grid;
    dim3 block;
    size_t shared_bytes;
    int line;
};

// Validates and records the launch, then runs every thread of the grid: `run_thread(body)`
// runs one thread's kernel body. `kernel_name` may be null: it is then found from `kernel`.
void launch_grid(const void* kernel, const char* kernel_name, const LaunchShape& shape,
                 void (*run_thread)(const void*), const void* body);

template <class Body>
void run_body(const void* body) {
    (*static_cast<const Body*>(body))();
}

}  // namespace detail

template <class... Params>
class KernelLaunch {
public:
    KernelLaunch(void (*kernel)(Params...), const detail::LaunchShape& shape) : kernel_(kernel), shape_(shape) {}

    void operator()(Params... args) const {
        // Each thread calls the kernel with its own copy of the arguments, as on the GPU. Copying them
        // is no access of device code: the memory observer need not see it.
        auto body = [&]() __attribute__((no_sanitize("thread"))) { kernel_(args...); };
        detail::launch_grid(reinterpret_cast<const void*>(kernel_), nullptr, shape_, &detail::run_body<decltype(body)>, &body);
    }

private:
    void (*kernel_)(Params...);
    detail::LaunchShape shape_;
};

// A launch of a kernel template whose arguments deduce its template parameters: the build
// passes a generic lambda that calls the kernel, and the kernel's name.
template <class Call>
class DeducedKernelLaunch {
public:
    DeducedKernelLaunch(const char* name, Call call, const detail::LaunchShape& shape) : name_(name), call_(call), shape_(shape) {}

    template <class... Args>
    void operator()(const Args&... args) const {
        auto body = [&]() __attribute__((no_sanitize("thread"))) { call_(args...); };
        detail::launch_grid(nullptr, name_, shape_, &detail::run_body<decltype(body)>, &body);
    }

private:
    const char* name_;
    Call call_;
    detail::LaunchShape shape_;
};

template <class... Params, class Stream>
inline KernelLaunch<Params...> launch(void (*kernel)(Params...), dim3 grid, dim3 block, size_t shared_bytes, Stream, int line) {
    return KernelLaunch<Params...>(kernel, {grid, block, shared_bytes, line});
}

template <class Call, class Stream>
inline DeducedKernelLaunch<Call> launch_deduced(const char* name, Call call, dim3 grid, dim3 block, size_t shared_bytes,
                                                Stream, int line) {
    return DeducedKernelLaunch<Call>(name, call, {grid, block, shared_bytes, line});
}

}  // namespace cudajudge
