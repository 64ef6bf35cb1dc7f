// libcu++'s cuda::std in host code (the host TU, and the CPU backend where device code is host code
// too): the host standard library. libcu++ itself compiles under NVRTC for the device TU.
#pragma once
namespace cuda {
namespace std = ::std;
}
