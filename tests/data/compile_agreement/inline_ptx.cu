// expect: builds
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned lane_id() {
    unsigned lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    return lane;
}

__device__ __forceinline__ float load_streaming(const float* p) {
    float v;
    asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(p));
    return v;
}

__device__ __forceinline__ unsigned bits_set(unsigned x) {
    unsigned n;
    asm("popc.b32 %0, %1;" : "=r"(n) : "r"(x));
    return n;
}

__global__ void relu_kernel(const float* input, float* output, int N) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N) return;
    float x = load_streaming(input + i);
    unsigned scratch;
    asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(scratch) : "r"(lane_id()), "r"(2u), "r"(bits_set(7u)));
    asm volatile("membar.gl;" ::: "memory");
    asm volatile("st.global.f32 [%0], %1;" :: "l"(output + i), "f"(fmaxf(x, 0.0f) + 0.0f * scratch));
}

extern "C" void solve(const float* input, float* output, int N) {
    relu_kernel<<<(N + 255) / 256, 256>>>(input, output, N);
}
