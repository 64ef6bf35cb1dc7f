// verdict: WA. thrust::copy_n of N - 1 keys leaves the output's last element unwritten.
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/sort.h>

extern "C" void solve(const unsigned int* input, unsigned int* output, int N) {
    thrust::device_vector<unsigned int> keys(input, input + N);
    thrust::sort(keys.begin(), keys.end());
    thrust::copy_n(keys.begin(), N - 1, thrust::device_pointer_cast(output));
}
