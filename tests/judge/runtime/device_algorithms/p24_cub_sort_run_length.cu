// verdict: AC. Sort a copy of the ids (cub::DeviceRadixSort::SortKeys), count each run
// (cub::DeviceRunLengthEncode::Encode), round the counts up and scan them (cub::DeviceScan::ExclusiveSum).
#include <cub/cub.cuh>

__global__ void scatter_counts(const int* experts, const int* lengths, const int* runs, int* counts) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < *runs) counts[experts[i]] = lengths[i];
}

__global__ void round_up(const int* counts, int* padded, int num_experts, int block_size) {
    int e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e < num_experts) padded[e] = (counts[e] + block_size - 1) / block_size * block_size;
    if (e == num_experts) padded[e] = 0;
}

extern "C" void solve(const int* expert_ids, int* counts, int* offsets, int num_tokens, int num_experts,
                      int block_size) {
    int *sorted, *experts, *lengths, *runs, *padded;
    cudaMalloc(&sorted, num_tokens * sizeof(int));
    cudaMalloc(&experts, num_tokens * sizeof(int));
    cudaMalloc(&lengths, num_tokens * sizeof(int));
    cudaMalloc(&runs, sizeof(int));
    cudaMalloc(&padded, (num_experts + 1) * sizeof(int));
    size_t sort_bytes = 0, encode_bytes = 0, scan_bytes = 0;
    cub::DeviceRadixSort::SortKeys(nullptr, sort_bytes, expert_ids, sorted, num_tokens);
    cub::DeviceRunLengthEncode::Encode(nullptr, encode_bytes, sorted, experts, lengths, runs, num_tokens);
    cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, padded, offsets, num_experts + 1);
    size_t temp_bytes = sort_bytes;
    if (encode_bytes > temp_bytes) temp_bytes = encode_bytes;
    if (scan_bytes > temp_bytes) temp_bytes = scan_bytes;
    void* d_temp;
    cudaMalloc(&d_temp, temp_bytes);
    cub::DeviceRadixSort::SortKeys(d_temp, temp_bytes, expert_ids, sorted, num_tokens);
    cub::DeviceRunLengthEncode::Encode(d_temp, temp_bytes, sorted, experts, lengths, runs, num_tokens);
    cudaMemset(counts, 0, num_experts * sizeof(int));
    scatter_counts<<<(num_tokens + 255) / 256, 256>>>(experts, lengths, runs, counts);
    round_up<<<(num_experts + 256) / 256, 256>>>(counts, padded, num_experts, block_size);
    cub::DeviceScan::ExclusiveSum(d_temp, temp_bytes, padded, offsets, num_experts + 1);
    cudaFree(d_temp);
    cudaFree(padded);
    cudaFree(runs);
    cudaFree(lengths);
    cudaFree(experts);
    cudaFree(sorted);
}
