// verdict: WA. resize() to N - 1 keeps the first N - 1 keys: the largest is lost from the sorted output.
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/sort.h>

extern "C" void solve(const unsigned int* input, unsigned int* output, int N) {
    thrust::device_vector<unsigned int> keys(input, input + N);
    thrust::sort(keys.begin(), keys.end());
    keys.resize(N - 1);
    thrust::copy(keys.begin(), keys.end(), output);
}
