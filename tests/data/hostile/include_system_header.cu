// expect: CE
// message: unistd.h
// what: a system header outside the allowlist
#include <unistd.h>
extern "C" void solve(const float* input, float* output, int N) { fork(); }
