// verdict: WA. thrust::max_element from the second item: the first one is never a candidate, and the position is one short.
#include <thrust/extrema.h>
#include <thrust/device_ptr.h>

extern "C" void solve(const float* input, int* index, int N) {
    thrust::device_ptr<const float> first = thrust::device_pointer_cast(input);
    int position = (int)(thrust::max_element(first + 1, first + N) - (first + 1));
    cudaMemcpy(index, &position, sizeof(int), cudaMemcpyHostToDevice);
}
