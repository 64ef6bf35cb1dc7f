// <cooperative_groups/reduce.h>: part of <cooperative_groups.h> on the CPU backend.
#pragma once
#include "../cooperative_groups.h"
