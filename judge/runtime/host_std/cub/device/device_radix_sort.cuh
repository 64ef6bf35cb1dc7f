// cub::DeviceRadixSort (and cub::DoubleBuffer) in host code, on both backends (see
// cudajudge/device_algorithms.h).
#pragma once
#include <cudajudge/device_algorithms.h>
#include "../detail/cudajudge_key_value_pair.h"

namespace cub {

template <class T>
struct DoubleBuffer {
    T* d_buffers[2];
    int selector;
    DoubleBuffer() : d_buffers{nullptr, nullptr}, selector(0) {}
    DoubleBuffer(T* d_current, T* d_alternate) : d_buffers{d_current, d_alternate}, selector(0) {}
    T* Current() { return d_buffers[selector]; }
    T* Alternate() { return d_buffers[selector ^ 1]; }
};

struct DeviceRadixSort {
private:
    template <class Key, class Value>
    static cudaError_t sort(const char* name, bool descending, void* d_temp_storage, size_t& temp_storage_bytes,
                            const Key* keys_in, Key* keys_out, const Value* values_in, Value* values_out,
                            long long num_items, int begin_bit, int end_bit, int line) {
        namespace a = ::cudajudge::algorithms;
        a::Call call(name, line, CUDAJUDGE_ALGO_RADIX_SORT);
        call.items<Key>(keys_in, keys_out, num_items);
        call.descending = descending;
        call.begin_bit = begin_bit;
        call.end_bit = end_bit;
        if constexpr (!std::is_same_v<Value, NullType>) {
            static_assert(std::is_trivially_copyable_v<Value>, "cub::DeviceRadixSort: values must be trivially copyable");
            call.values_in = values_in;
            call.values_out = values_out;
            call.value_bytes = sizeof(Value);
        }
        constexpr int key_bits = 8 * sizeof(Key);
        if (!(0 <= begin_bit && begin_bit < end_bit && end_bit <= key_bits) && !(begin_bit == end_bit)) {
            call.refused_because = std::string(name) + " on line " + std::to_string(line) + ": the bit range [" +
                                   std::to_string(begin_bit) + ", " + std::to_string(end_bit) +
                                   ") does not lie within the key's " + std::to_string(key_bits) + " bits";
            call.refusal = call.refused_because.c_str();
        }
        size_t value_bytes = std::is_same_v<Value, NullType> ? 0 : sizeof(Value);
        return a::two_phase(call, d_temp_storage, temp_storage_bytes,
                            a::temp_storage_for(num_items, sizeof(Key) + value_bytes));
    }

    // The DoubleBuffer forms sort from Current() into Alternate() and flip the selector, as CUB may.
    template <class Key, class Value>
    static cudaError_t sort_buffers(const char* name, bool descending, void* d_temp_storage,
                                    size_t& temp_storage_bytes, DoubleBuffer<Key>& keys, DoubleBuffer<Value>* values,
                                    long long num_items, int begin_bit, int end_bit, int line) {
        bool query = d_temp_storage == nullptr;
        cudaError_t error = sort<Key, Value>(name, descending, d_temp_storage, temp_storage_bytes, keys.Current(),
                                             keys.Alternate(), values ? values->Current() : nullptr,
                                             values ? values->Alternate() : nullptr, num_items, begin_bit, end_bit,
                                             line);
        if (error == cudaSuccess && !query) {
            keys.selector ^= 1;
            if (values) values->selector ^= 1;
        }
        return error;
    }

#define CUDAJUDGE_RADIX_SORT_KEYS(NAME, DESCENDING)                                                                 \
    template <class Key, class N>                                                                                 \
    static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, const Key* d_keys_in, Key* d_keys_out, \
                            N num_items, int begin_bit = 0, int end_bit = sizeof(Key) * 8, cudaStream_t = 0,        \
                            CUDAJUDGE_CALL_SITE) {                                                                  \
        return sort<Key, NullType>("cub::DeviceRadixSort::" #NAME, DESCENDING, d_temp_storage, temp_storage_bytes,    \
                                   d_keys_in, d_keys_out, nullptr, nullptr, num_items, begin_bit, end_bit, site.value); \
    }                                                                                                             \
    template <class Key, class N>                                                                                 \
    static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<Key>& d_keys,             \
                            N num_items, int begin_bit = 0, int end_bit = sizeof(Key) * 8, cudaStream_t = 0,        \
                            CUDAJUDGE_CALL_SITE) {                                                                  \
        return sort_buffers<Key, NullType>("cub::DeviceRadixSort::" #NAME, DESCENDING, d_temp_storage,               \
                                           temp_storage_bytes, d_keys, nullptr, num_items, begin_bit, end_bit,      \
                                           site.value);                                                              \
    }

#define CUDAJUDGE_RADIX_SORT_PAIRS(NAME, DESCENDING)                                                                \
    template <class Key, class Value, class N>                                                                    \
    static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, const Key* d_keys_in, Key* d_keys_out, \
                            const Value* d_values_in, Value* d_values_out, N num_items, int begin_bit = 0,          \
                            int end_bit = sizeof(Key) * 8, cudaStream_t = 0, CUDAJUDGE_CALL_SITE) {                 \
        return sort<Key, Value>("cub::DeviceRadixSort::" #NAME, DESCENDING, d_temp_storage, temp_storage_bytes,       \
                                d_keys_in, d_keys_out, d_values_in, d_values_out, num_items, begin_bit, end_bit,    \
                                site.value);                                                                         \
    }                                                                                                             \
    template <class Key, class Value, class N>                                                                    \
    static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, DoubleBuffer<Key>& d_keys,             \
                            DoubleBuffer<Value>& d_values, N num_items, int begin_bit = 0,                          \
                            int end_bit = sizeof(Key) * 8, cudaStream_t = 0, CUDAJUDGE_CALL_SITE) {                 \
        return sort_buffers<Key, Value>("cub::DeviceRadixSort::" #NAME, DESCENDING, d_temp_storage,                  \
                                        temp_storage_bytes, d_keys, &d_values, num_items, begin_bit, end_bit,       \
                                        site.value);                                                                 \
    }

public:
    CUDAJUDGE_RADIX_SORT_KEYS(SortKeys, false)
    CUDAJUDGE_RADIX_SORT_KEYS(SortKeysDescending, true)
    CUDAJUDGE_RADIX_SORT_PAIRS(SortPairs, false)
    CUDAJUDGE_RADIX_SORT_PAIRS(SortPairsDescending, true)
#undef CUDAJUDGE_RADIX_SORT_KEYS
#undef CUDAJUDGE_RADIX_SORT_PAIRS
};

}  // namespace cub
