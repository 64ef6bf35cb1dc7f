// Kernels with the bugs the CPU backend must diagnose, one solve_* entry point each.
#include <cuda_runtime.h>
#include <cassert>
#include <cstdio>

__global__ void early_return_sum(const int* in, int* out, int n) {
    __shared__ int partial[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    partial[threadIdx.x] = in[i];
    __syncthreads();  // early
    if (threadIdx.x == 0) {
        int s = 0;
        for (int k = 0; k < 256; ++k) s += partial[k];
        out[blockIdx.x] = s;
    }
}

extern "C" void solve_early_return(const int* in, int* out, int n) {
    early_return_sum<<<(n + 255) / 256, 256>>>(in, out, n);
}

// Hillis-Steele inclusive scan of one 256-element tile, missing the barrier between reading a
// neighbour and overwriting its own element.
__global__ void racy_scan(const int* in, int* out, int n) {
    __shared__ int s[256];
    int t = threadIdx.x;
    s[t] = t < n ? in[t] : 0;
    __syncthreads();
    for (int offset = 1; offset < 256; offset *= 2) {
        int add = t >= offset ? s[t - offset] : 0;
        s[t] += add;
        __syncthreads();
    }
    if (t < n) out[t] = s[t];
}

extern "C" void solve_racy_scan(const int* in, int* out, int n) {
    racy_scan<<<1, 256>>>(in, out, n);
}

__global__ void half_mask_reduce(const float* in, float* out) {
    float v = in[threadIdx.x];
    for (int offset = 8; offset > 0; offset /= 2)
        v += __shfl_down_sync(0x0000ffff, v, offset);
    if (threadIdx.x == 0) *out = v;
}

extern "C" void solve_half_mask(const float* in, float* out) {
    half_mask_reduce<<<1, 32>>>(in, out);
}

__global__ void conditional_barrier(int* out) {
    if (threadIdx.x < 32) {
        out[threadIdx.x] = 1;
        __syncthreads();  // branch
    }
}  // end of conditional_barrier

extern "C" void solve_conditional_barrier(int* out, int blocks) {
    conditional_barrier<<<blocks, 128>>>(out);
}

__global__ void warp_waits_for_barrier(int* out) {
    int v = threadIdx.x;
    if (threadIdx.x < 16) v = __shfl_sync(0xffffffff, v, 0);
    __syncthreads();  // deadlock
    out[threadIdx.x] = v;
}

extern "C" void solve_warp_deadlock(int* out) {
    warp_waits_for_barrier<<<1, 64>>>(out);
}

__device__ int depth(volatile int* trail, int n) {
    int local[64];
    for (int i = 0; i < 64; ++i) local[i] = trail[i % 4] + n;
    return n <= 0 ? local[n & 63] : depth(trail, n - 1) + local[(n * 7) & 63];
}

__global__ void deep_recursion(int* out, int n) {
    out[threadIdx.x] = depth(out, n);
}

extern "C" void solve_deep_recursion(int* out, int n) {
    deep_recursion<<<1, 4>>>(out, n);
}

__global__ void null_write(int* out, int index) {
    int* target = threadIdx.x == 3 ? nullptr : out;
    target[index + threadIdx.x] = 7;
}

extern "C" void solve_null_write(int* out) {
    null_write<<<2, 8>>>(out, 0);
}

__global__ void divide(const int* in, int* out, int divisor) {
    out[threadIdx.x] = in[threadIdx.x] / (divisor - (int)threadIdx.x);
}

extern "C" void solve_divide(const int* in, int* out) {
    divide<<<1, 8>>>(in, out, 5);
}

__global__ void nothing(int* out) { out[0] = 1; }

extern "C" void solve_oversized_block(int* out) {
    nothing<<<1, 2048>>>(out);
}

__global__ void uses_dynamic(float* out) {
    extern __shared__ float dyn[];
    dyn[threadIdx.x] = 1.0f;
    out[threadIdx.x] = dyn[threadIdx.x];
}

extern "C" void solve_too_much_shared(float* out, int opt_in) {
    const int bytes = 64 * 1024;
    if (opt_in) cudaFuncSetAttribute(uses_dynamic, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
    uses_dynamic<<<1, 32, bytes>>>(out);
}

extern "C" int solve_too_much_memory(unsigned long long bytes) {
    void* p = nullptr;
    cudaError_t err = cudaMalloc(&p, bytes);
    return (int)err;
}

__global__ void write_past_end(int* buf, int n) { buf[n + threadIdx.x] = 42; }

extern "C" void solve_oob_temp(int n) {
    int* temp = nullptr;
    cudaMalloc(&temp, n * sizeof(int));
    write_past_end<<<1, 2>>>(temp, n);
    cudaFree(temp);
}

__global__ void traps(int* out) {
    if (threadIdx.x == 5) __trap();
    out[threadIdx.x] = 1;
}

extern "C" void solve_trap(int* out) {
    traps<<<1, 8>>>(out);
}

__global__ void asserts(const int* in) {
    assert(in[threadIdx.x] >= 0);
}

extern "C" void solve_assert(const int* in) {
    asserts<<<1, 4>>>(in);
}

__global__ void shuffle_after_exit(const int* in, int* out, int n) {
    int i = threadIdx.x;
    if (i >= n) return;  // shuffle
    int v = in[i];
    v += __shfl_xor_sync(0xffffffff, v, 1);
    out[i] = v;
}

extern "C" void solve_shuffle_after_exit(const int* in, int* out, int n) {
    shuffle_after_exit<<<1, 32>>>(in, out, n);
}

__global__ void sticky_then_more(int* out) { out[threadIdx.x] = 2; }

extern "C" int solve_after_fault(int* out) {
    null_write<<<1, 8>>>(out, 0);
    int sync = (int)cudaDeviceSynchronize();
    sticky_then_more<<<1, 8>>>(out);
    return sync;
}

extern "C" int solve_memcpy_overrun(const int* host, int n) {
    int* device = nullptr;
    cudaMalloc(&device, n * sizeof(int));
    int status = (int)cudaMemcpy(device, host, (n + 1) * sizeof(int), cudaMemcpyHostToDevice);
    cudaFree(device);
    return status;
}

extern "C" void solve_tall_grid(int* out) {
    nothing<<<dim3(1, 70000), 1>>>(out);
}

__global__ void child(int* out) { out[1] = 2; }

__global__ void parent(int* out) {
    child<<<1, 1>>>(out);
    out[0] = 1;
}

extern "C" void solve_nested_launch(int* out) {
    parent<<<1, 1>>>(out);
}

__global__ void throws(int* out) {
    if (threadIdx.x == 1) throw 42;
    out[threadIdx.x] = 1;
}

extern "C" void solve_throw(int* out) {
    throws<<<1, 4>>>(out);
}

__global__ void write_far(int* out, int n) { out[n + 1024 * (int)threadIdx.x] = 1; }

extern "C" void solve_write_far(int* out, int n) {
    write_far<<<1, 4>>>(out, n);
}
