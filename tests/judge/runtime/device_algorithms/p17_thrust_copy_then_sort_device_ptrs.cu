// verdict: AC. Without a policy: thrust::copy from a device_ptr<const T> into a device_ptr<T>, then thrust::sort.
#include <thrust/copy.h>
#include <thrust/device_ptr.h>
#include <thrust/sort.h>

extern "C" void solve(const unsigned int* input, unsigned int* output, int N) {
    thrust::device_ptr<const unsigned int> in(input);
    thrust::device_ptr<unsigned int> out(output);
    thrust::copy(in, in + N, out);
    thrust::sort(out, out + N);
}
