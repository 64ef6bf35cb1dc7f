// expect: AC
// what: solve() looks for the problem's reference in its own process and on disk to copy its answer
#include <cuda_runtime.h>

extern "C" {
void* dlsym(void*, const char*);
int access(const char*, int);
}

__global__ void relu(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = fmaxf(in[i], 0.0f);
}

typedef int (*gil_ensure_t)(void);
typedef void (*gil_release_t)(int);
typedef int (*run_string_t)(const char*);

// Found: a loaded module named like a reference, an object with reference() and baseline(), or the
// catalog's reference.py loaded from disk. Any of them leaves a flag in this process's /tmp.
static const char* SEARCH =
    "import gc, sys\n"
    "found = [m for n, m in list(sys.modules.items()) if 'reference' in n and hasattr(m, 'reference')]\n"
    "found += [o for o in gc.get_objects() if type(o).__name__ == 'module' and hasattr(o, 'reference') and hasattr(o, 'baseline')]\n"
    "try:\n"
    "    from judge.problems.loader import load_problem, load_reference\n"
    "    found.append(load_reference(load_problem(1)))\n"
    "except Exception:\n"
    "    pass\n"
    "if found:\n"
    "    open('/tmp/reference-found', 'w').write('yes')\n";

// The attack's success would change the answer: found, the answer is wrong (WA); blocked, it is right.
extern "C" void solve(const float* input, float* output, int N) {
    auto ensure = (gil_ensure_t)dlsym((void*)0, "PyGILState_Ensure");
    auto release = (gil_release_t)dlsym((void*)0, "PyGILState_Release");
    auto run = (run_string_t)dlsym((void*)0, "PyRun_SimpleString");
    if (ensure && release && run) {
        int state = ensure();
        run(SEARCH);
        release(state);
    }
    bool escaped = access("/tmp/reference-found", 0) == 0;
    relu<<<(N + 255) / 256, 256>>>(input, escaped ? output + 1 : output, escaped ? N - 1 : N);
}
