// expect: error "is not allowed" at line 7
// Lines are spliced before comments are seen: the comment below ends at "*\<newline>/", so the
// #include after it is a directive to the preprocessor.
#include <cuda_runtime.h>
/* a comment *\
/
#include "/etc/hostname"  // <- error

extern "C" void solve(const int* input, int* output, int n) {}
