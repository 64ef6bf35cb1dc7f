// The device-wide algorithms host code calls (CUB's Device* and Thrust's), one API for both
// backends: each call is checked here, described as a cudajudge_algorithm_call and handed to the
// backend's cudajudge_device_algorithm(). What this header refuses, it refuses on both backends.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>

#include <cuda/functional>
#include <cuda_runtime.h>

#include "call_site.h"
#include "device_algorithm_abi.h"

namespace cudajudge::algorithms {

// The items the algorithms run on: integers of 8 to 64 bits, float and double.
template <class T>
constexpr int item_type() {
    using U = std::remove_cv_t<T>;
    if constexpr (std::is_same_v<U, float>) return CUDAJUDGE_T_F32;
    else if constexpr (std::is_same_v<U, double>) return CUDAJUDGE_T_F64;
    else if constexpr (std::is_integral_v<U> && !std::is_same_v<U, bool>) {
        constexpr bool s = std::is_signed_v<U>;
        if constexpr (sizeof(U) == 1) return s ? CUDAJUDGE_T_I8 : CUDAJUDGE_T_U8;
        else if constexpr (sizeof(U) == 2) return s ? CUDAJUDGE_T_I16 : CUDAJUDGE_T_U16;
        else if constexpr (sizeof(U) == 4) return s ? CUDAJUDGE_T_I32 : CUDAJUDGE_T_U32;
        else return s ? CUDAJUDGE_T_I64 : CUDAJUDGE_T_U64;
    } else return CUDAJUDGE_T_NONE;
}

template <class T>
inline constexpr bool is_item = item_type<T>() != CUDAJUDGE_T_NONE;

#define CUDAJUDGE_ITEMS_MESSAGE \
    "the judge runs device-wide algorithms on 8- to 64-bit integers, float and double"
#define CUDAJUDGE_OPERATOR_MESSAGE                                                                          \
    "the judge runs this algorithm with cuda::std::plus, cuda::maximum or cuda::minimum (thrust::plus, "   \
    "thrust::maximum, thrust::minimum): an operator of your own cannot run on the device here yet"

// The standard operators, by what they compute.
template <class Op>
struct operator_code : std::integral_constant<int, CUDAJUDGE_OP_NONE> {};
template <class T>
struct operator_code<std::plus<T>> : std::integral_constant<int, CUDAJUDGE_OP_SUM> {};
template <class T>
struct operator_code<cuda::maximum<T>> : std::integral_constant<int, CUDAJUDGE_OP_MAX> {};
template <class T>
struct operator_code<cuda::minimum<T>> : std::integral_constant<int, CUDAJUDGE_OP_MIN> {};

template <class Op>
inline constexpr int operator_of = operator_code<std::remove_cv_t<Op>>::value;

// Iterators the algorithms accept: raw device pointers, and what thrust/device_ptr.h adds.
template <class It>
struct device_iterator {
    static constexpr bool valid = false;
};
template <class T>
struct device_iterator<T*> {
    static constexpr bool valid = true;
    using value_type = std::remove_cv_t<T>;
    static T* raw(T* p) { return p; }
};

template <class It>
using value_of = typename device_iterator<It>::value_type;

template <class It>
inline auto raw(It it) { return device_iterator<It>::raw(it); }

// One call, zeroed, with what every call carries.
struct Call : cudajudge_algorithm_call {
    Call(const char* algorithm, int call_line, int algorithm_kind) : cudajudge_algorithm_call{} {
        name = algorithm;
        line = call_line;
        kind = algorithm_kind;
    }

    template <class T>
    void items(const T* input, T* output, long long count) {
        static_assert(is_item<T>, CUDAJUDGE_ITEMS_MESSAGE);
        item_type = algorithms::item_type<T>();
        in = input;
        out = output;
        num_items = count;
    }

    template <class T, class V>
    void set_value(unsigned char (&field)[8], V value) {
        T converted = static_cast<T>(value);
        std::memcpy(field, &converted, sizeof converted);
    }

    template <class R>
    void result_to(R* where, bool on_host) {
        static_assert(is_item<R>, CUDAJUDGE_ITEMS_MESSAGE);
        result = where;
        result_type = algorithms::item_type<R>();
        result_on_host = on_host ? 1 : 0;
    }

    cudaError_t run() {
        if (num_items < 0 && !refusal) {
            refused_because = std::string(name) + " on line " + std::to_string(line) + " was called with num_items = " +
                              std::to_string(num_items) + ": a count cannot be negative";
            refusal = refused_because.c_str();
        }
        return static_cast<cudaError_t>(cudajudge_device_algorithm(this));
    }

    std::string refused_because;
};

// CUB's two phases: with d_temp_storage null the call only says how much temporary storage it
// needs; with storage, it checks the size it is given and runs.
inline size_t temp_storage_for(long long items, size_t bytes_per_item) {
    size_t bytes = 1024 + static_cast<size_t>(items > 0 ? items : 0) * bytes_per_item;
    return (bytes + 255) / 256 * 256;
}

inline cudaError_t two_phase(Call& call, void* d_temp_storage, size_t& temp_storage_bytes, size_t required) {
    if (d_temp_storage == nullptr) {
        temp_storage_bytes = required;
        return cudaSuccess;
    }
    call.temp = d_temp_storage;
    call.temp_bytes = required;
    if (temp_storage_bytes < required) {
        call.refused_because = std::string(call.name) + " on line " + std::to_string(call.line) +
                               ": temp_storage_bytes is " + std::to_string(temp_storage_bytes) + ", less than the " +
                               std::to_string(required) + " bytes its size query (d_temp_storage = nullptr) returned";
        call.refusal = call.refused_because.c_str();
    }
    return call.run();
}

// The identity CUB seeds a reduction with.
template <class T>
constexpr T identity_of(int op) {
    if (op == CUDAJUDGE_OP_MIN) return std::numeric_limits<T>::max();
    if (op == CUDAJUDGE_OP_MAX) return std::numeric_limits<T>::lowest();
    return T{};
}

}  // namespace cudajudge::algorithms
