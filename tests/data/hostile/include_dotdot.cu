// expect: CE
// message: ..
// what: #include with .. to reach the host's files
#include "../../../../etc/passwd"
extern "C" void solve(const float* input, float* output, int N) {}
