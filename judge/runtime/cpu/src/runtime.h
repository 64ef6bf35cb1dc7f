// The runtime's own view of the user-facing declarations, so that definitions here and
// declarations there cannot drift apart.
#pragma once

#include "../cuda_cpu.h"
