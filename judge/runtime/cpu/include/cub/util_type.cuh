// <cub/util_type.cuh> on the CPU backend: KeyValuePair and NullType.
#pragma once
#include "detail/cudajudge_collective.h"
