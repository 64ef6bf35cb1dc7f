// The judge's kernels that run a functor of the user's for a device-wide algorithm (thrust::transform,
// copy_if's predicate, ...), compiled with the user's device code: by NVRTC on the GPU backend (the
// build reads which instantiations the host code uses from its object file and names them as NVRTC
// name expressions), by the CPU build with the rest of the file. The GPU backend's host code sees
// each kernel as a stub that hands its arguments to the launcher, as for the user's own kernels.
#pragma once

namespace cudajudge::shown_as {
// The algorithm a kernel's launches are shown under in the per-kernel breakdown: its type's name,
// less this namespace.
namespace thrust {
struct transform;
struct transform_reduce;
struct inner_product;
struct copy_if;
struct count_if;
}  // namespace thrust
namespace cub::DeviceSelect {
struct If;
}  // namespace cub::DeviceSelect
}  // namespace cudajudge::shown_as

namespace cudajudge::algorithms {

// out[i] = op(in[i]) for i < n.
template <class Shown, class Op, class In, class Out>
__global__ void map_kernel(Op op, const In* in, Out* out, long long n)
#ifdef CUDAJUDGE_KERNEL_STUBS
{ ::cudajudge::launch_pending({(void*)&op, (void*)&in, (void*)&out, (void*)&n}); }
#else
{
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = static_cast<Out>(op(in[i]));
}
#endif

// out[i] = op(a[i], b[i]) for i < n.
template <class Shown, class Op, class A, class B, class Out>
__global__ void zip_kernel(Op op, const A* a, const B* b, Out* out, long long n)
#ifdef CUDAJUDGE_KERNEL_STUBS
{ ::cudajudge::launch_pending({(void*)&op, (void*)&a, (void*)&b, (void*)&out, (void*)&n}); }
#else
{
    const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
    for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = static_cast<Out>(op(a[i], b[i]));
}
#endif

}  // namespace cudajudge::algorithms
