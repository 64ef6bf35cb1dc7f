// cudajudge-todo: a starter that compiles, launches a kernel and is wrong, with a TODO for the learner
__global__ void copy_kernel(const float* input, float* output, int N) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < N) {
        // TODO: write input[i] into output[i].
    }
}

extern "C" void solve(const float* input, float* output, int N) {
    copy_kernel<<<(N + 255) / 256, 256>>>(input, output, N);
}
