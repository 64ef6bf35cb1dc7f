// expect: RE
// message: SIGSEGV
// what: a host memset far past the end of the output buffer
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" {
int fork(void);
int vfork(void);
void _exit(int);
int execl(const char*, const char*, ...);
long syscall(long, ...);
int getppid(void);
int unlink(const char*);
int symlink(const char*, const char*);
long write(int, const void*, unsigned long);
int socket(int, int, int);
int connect(int, const void*, unsigned);
long sendto(int, const void*, unsigned long, int, const void*, unsigned);
long ptrace(int, int, void*, void*);
int mount(const char*, const char*, const char*, unsigned long, const void*);
int unshare(int);
void* dlopen(const char*, int);
void* dlsym(void*, const char*);
void* mmap(void*, unsigned long, int, int, int, long);
int raise(int);
}
struct ipv4_address { unsigned short family, port; unsigned int host; char zero[8]; };

__global__ void relu(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = fmaxf(in[i], 0.0f);
}

// The attack's success would change the answer: a succeeded attack gives WA, a blocked one AC.
static void answer(const float* input, float* output, int N, bool escaped) {
    relu<<<(N + 255) / 256, 256>>>(input, escaped ? output + 1 : output, escaped ? N - 1 : N);
}

extern "C" void solve(const float* input, float* output, int N) {
    answer(input, output, N, false);
    cudaDeviceSynchronize();
    memset(output + N + (1 << 22), 0x7f, 1 << 20);
}
