// verdict: WA. thrust::min_element: the position of the minimum, not the maximum.
#include <thrust/extrema.h>
#include <thrust/execution_policy.h>

extern "C" void solve(const float* input, int* index, int N) {
    int position = (int)(thrust::min_element(thrust::device, input, input + N) - input);
    cudaMemcpy(index, &position, sizeof(int), cudaMemcpyHostToDevice);
}
