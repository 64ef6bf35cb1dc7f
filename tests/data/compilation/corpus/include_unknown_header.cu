// expect: error "#include <bits/stdc++.h> is not allowed"
#include <bits/stdc++.h>  // <- error

extern "C" void solve(const int* input, int* output, int n) {}
