// expect: error "is not supported: the judge provides <cub/device/device_histogram.cuh>"
#include <cub/device/device_spmv.cuh>  // <- error

extern "C" void solve(const int* input, int* output, int n) {}
