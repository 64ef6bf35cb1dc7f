// <device_functions.h> for the CPU backend: everything it declares is in cuda_cpu.h, which every CPU build
// force-includes.
#pragma once
#include "../cuda_cpu.h"
