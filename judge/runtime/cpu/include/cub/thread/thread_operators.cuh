// <cub/thread/thread_operators.cuh> on the CPU backend: ArgMax and ArgMin over KeyValuePair (CUB
// 3 has no cub::Sum/Max/Min; cuda::std::plus, cuda::maximum and cuda::minimum take their place).
#pragma once
#include "../detail/cudajudge_collective.h"
#include <cuda/functional>

namespace cub {

// The pair with the larger value; of equal values, the one with the smaller key.
struct ArgMax {
    template <class Key, class Value>
    KeyValuePair<Key, Value> operator()(const KeyValuePair<Key, Value>& a, const KeyValuePair<Key, Value>& b) const {
        if ((b.value > a.value) || (!(a.value > b.value) && b.key < a.key)) return b;
        return a;
    }
};

// The pair with the smaller value; of equal values, the one with the smaller key.
struct ArgMin {
    template <class Key, class Value>
    KeyValuePair<Key, Value> operator()(const KeyValuePair<Key, Value>& a, const KeyValuePair<Key, Value>& b) const {
        if ((b.value < a.value) || (!(b.value > a.value) && b.key < a.key)) return b;
        return a;
    }
};

}  // namespace cub
