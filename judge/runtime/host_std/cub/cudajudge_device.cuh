// CUB's device-wide algorithms for host code: what <cub/cub.cuh> brings to the host side.
#pragma once
#include "device/device_histogram.cuh"
#include "device/device_radix_sort.cuh"
#include "device/device_reduce.cuh"
#include "device/device_run_length_encode.cuh"
#include "device/device_scan.cuh"
#include "device/device_segmented_reduce.cuh"
#include "device/device_select.cuh"
