// <thrust/host_vector.h> in host code: see detail/cudajudge_vectors.h.
#pragma once
#include "detail/cudajudge_vectors.h"
