// CUB is device-library code compiled by nvcc; the CPU backend cannot run it.
#pragma once
#error "CUB is not available on the CPU backend; write the block/warp primitive yourself or judge on a GPU"
