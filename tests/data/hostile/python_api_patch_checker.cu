// expect: WA
// message: expected
// what: solve() runs Python in its own process to make the judge's checks accept everything
#include <cuda_runtime.h>

extern "C" {
void* dlsym(void*, const char*);
}

__global__ void relu(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = fmaxf(in[i], 0.0f);
}

typedef int (*gil_ensure_t)(void);
typedef void (*gil_release_t)(int);
typedef int (*run_string_t)(const char*);

// Every place a checker could live in this process is patched to pass; then the answer is wrong.
static const char* PATCH =
    "import sys\n"
    "for name in ('judge.checking.compare', 'judge.problems.tolerances', 'judge.checking.tests'):\n"
    "    try:\n"
    "        module = __import__(name, fromlist=['x'])\n"
    "    except Exception:\n"
    "        continue\n"
    "    for attr in ('compare_outputs', 'check_output', 'guard_damage', 'first_input_change'):\n"
    "        if hasattr(module, attr):\n"
    "            setattr(module, attr, lambda *a, **k: None)\n";

extern "C" void solve(const float* input, float* output, int N) {
    auto ensure = (gil_ensure_t)dlsym((void*)0, "PyGILState_Ensure");
    auto release = (gil_release_t)dlsym((void*)0, "PyGILState_Release");
    auto run = (run_string_t)dlsym((void*)0, "PyRun_SimpleString");
    if (ensure && release && run) {
        int state = ensure();
        run(PATCH);
        release(state);
    }
    relu<<<(N + 255) / 256, 256>>>(input, output + 1, N - 1);
}
