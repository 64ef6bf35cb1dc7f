// expect: RE
// message: the process running solve()
// expect-gpu: WA
// message-gpu: wrote to its input
// what: solve() answers right, reports every planned test as returned on every open descriptor, and exits
// (on the GPU the forged report comes before the runner copies anything back: the judge side finds in the
// exchange file neither the outputs nor the inputs, which the runner reads from the oracle's file)
#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>

extern "C" {
void _exit(int);
int fstat(int, void*);
}

static bool is_pipe(int fd) {   // the event channel is a pipe; x86-64's struct stat has st_mode at byte 24
    unsigned char st[256];
    unsigned mode;
    if (fstat(fd, st) != 0) return false;
    memcpy(&mode, st + 24, sizeof mode);
    return (mode & 0170000) == 0010000;
}

__global__ void relu(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = fmaxf(in[i], 0.0f);
}

extern "C" void solve(const float* input, float* output, int N) {
    relu<<<(N + 255) / 256, 256>>>(input, output, N);
    cudaDeviceSynchronize();
    const char* tests[] = {"sample/N=8/uniform", "sample/N=1000/uniform", "edge/N=1/uniform", "edge/N=33/uniform"};
    for (int fd = 3; fd < 64; ++fd) {
        if (!is_pipe(fd)) continue;
        for (const char* test : tests) {
            dprintf(fd, "{\"kind\": \"returned\", \"test\": \"%s\"}\n", test);
            dprintf(fd, "{\"kind\": \"released\", \"test\": \"%s\"}\n", test);
        }
    }
    _exit(0);
}
