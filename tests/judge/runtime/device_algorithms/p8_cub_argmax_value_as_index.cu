// verdict: WA. The pair's value (the maximum itself) is written as the index.
#include <cub/cub.cuh>

__global__ void take_value(const cub::KeyValuePair<int, float>* pair, int* index) { *index = (int)pair->value; }

extern "C" void solve(const float* input, int* index, int N) {
    cub::KeyValuePair<int, float>* pair;
    cudaMalloc(&pair, sizeof(*pair));
    void* d_temp = nullptr;
    size_t temp_bytes = 0;
    cub::DeviceReduce::ArgMax(d_temp, temp_bytes, input, pair, N);
    cudaMalloc(&d_temp, temp_bytes);
    cub::DeviceReduce::ArgMax(d_temp, temp_bytes, input, pair, N);
    take_value<<<1, 1>>>(pair, index);
    cudaFree(d_temp);
    cudaFree(pair);
}
