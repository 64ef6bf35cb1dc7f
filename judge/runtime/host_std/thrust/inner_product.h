// <thrust/inner_product.h> in host code: see detail/cudajudge_thrust.h.
#pragma once
#include "detail/cudajudge_thrust.h"
