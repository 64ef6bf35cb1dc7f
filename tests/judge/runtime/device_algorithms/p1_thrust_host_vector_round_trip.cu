// verdict: AC. The input to a thrust::host_vector (through a device_vector), ReLU on the host, back by a device_vector.
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>

extern "C" void solve(const float* input, float* output, int N) {
    thrust::device_vector<float> on_device(thrust::device_pointer_cast(input), thrust::device_pointer_cast(input) + N);
    thrust::host_vector<float> on_host = on_device;
    for (float& x : on_host) x = x > 0.0f ? x : 0.0f;
    thrust::device_vector<float> result = on_host;
    thrust::copy(result.begin(), result.end(), thrust::device_pointer_cast(output));
}
