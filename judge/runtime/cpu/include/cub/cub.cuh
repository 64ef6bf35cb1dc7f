// <cub/cub.cuh> on the CPU backend: the block and warp primitives and the device-wide algorithms.
#pragma once
#include "block/block_discontinuity.cuh"
#include "block/block_exchange.cuh"
#include "block/block_histogram.cuh"
#include "block/block_load.cuh"
#include "block/block_merge_sort.cuh"
#include "block/block_radix_sort.cuh"
#include "block/block_reduce.cuh"
#include "block/block_scan.cuh"
#include "block/block_store.cuh"
#include "warp/warp_reduce.cuh"
#include "warp/warp_scan.cuh"
#include "thread/thread_operators.cuh"
#include <cub/cudajudge_device.cuh>
