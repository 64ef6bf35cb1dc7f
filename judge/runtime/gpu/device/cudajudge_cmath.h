// What <cmath> and <math.h> give device code under NVRTC. The math functions themselves are
// NVRTC built-ins; NVRTC has no C library, so the macros learners use come from here. (libcu++'s
// <cuda/std/cmath> defines them too, but costs over a second of compile time per build.)
#pragma once

#define INFINITY (__int_as_float(0x7f800000))
#define NAN (__int_as_float(0x7fffffff))
#define HUGE_VALF (__int_as_float(0x7f800000))
#define HUGE_VAL (__longlong_as_double(0x7ff0000000000000LL))
