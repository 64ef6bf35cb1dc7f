// expect: error "device-wide CUB algorithms are launched from host code"
#include <cub/device/device_scan.cuh>  // <- error

extern "C" void solve(const int* input, int* output, int n) {}
