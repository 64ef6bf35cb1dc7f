// verdict: AC. Without a policy, thrust::copy from a device_ptr into a std::vector and into a raw host
// array, ReLU on the host, and back into a device_ptr: Thrust's copies between host and device.
#include <thrust/copy.h>
#include <thrust/device_ptr.h>
#include <vector>

extern "C" void solve(const float* input, float* output, int N) {
    thrust::device_ptr<const float> in(input);
    thrust::device_ptr<float> out(output);
    std::vector<float> values(N);
    thrust::copy(in, in + N, values.begin());
    float* raw = new float[N];
    thrust::copy_n(in, N, raw);
    for (int i = 0; i < N; ++i) values[i] = raw[i] > 0.0f ? values[i] : 0.0f;
    delete[] raw;
    thrust::copy(values.begin(), values.end(), out);
}
