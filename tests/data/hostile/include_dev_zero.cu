// expect: CE
// message: /dev/zero
// what: #include of /dev/zero
#include "/dev/zero"
extern "C" void solve(const float* input, float* output, int N) {}
