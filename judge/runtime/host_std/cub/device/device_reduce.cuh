// cub::DeviceReduce in host code, on both backends (see cudajudge/device_algorithms.h).
#pragma once
#include <cudajudge/device_algorithms.h>
#include "../detail/cudajudge_key_value_pair.h"

namespace cub {

struct DeviceReduce {
private:
    template <class In, class Out, class Init>
    static cudaError_t reduce(const char* name, int op, void* d_temp_storage, size_t& temp_storage_bytes, In d_in,
                              Out d_out, long long num_items, Init init, int line) {
        namespace a = ::cudajudge::algorithms;
        using T = a::value_of<In>;
        static_assert(std::is_same_v<T, a::value_of<Out>>, "cub::DeviceReduce here writes the type it reads: pass an output of the input's type");
        a::Call call(name, line, CUDAJUDGE_ALGO_REDUCE);
        call.op = op;
        call.items<T>(a::raw(d_in), nullptr, num_items);
        call.set_value<T>(call.init, init);
        call.result_to<T>(a::raw(d_out), false);
        return a::two_phase(call, d_temp_storage, temp_storage_bytes, a::temp_storage_for(num_items / 256, sizeof(T)));
    }

    template <class In, class Index, class Value>
    static cudaError_t arg_reduce(const char* name, int op, void* d_temp_storage, size_t& temp_storage_bytes, In d_in,
                                  Value* d_value_out, Index* d_index_out, KeyValuePair<Index, Value>* d_pair_out,
                                  long long num_items, int line) {
        namespace a = ::cudajudge::algorithms;
        using T = a::value_of<In>;
        static_assert(std::is_same_v<T, std::remove_cv_t<Value>>, "cub::DeviceReduce::ArgMin/ArgMax writes the type it reads: pass an output of the input's type");
        long long index = 0;
        a::Call call(name, line, CUDAJUDGE_ALGO_ARG_REDUCE);
        call.op = op;
        call.items<T>(a::raw(d_in), nullptr, num_items);
        call.result_to<long long>(&index, true);
        size_t required = a::temp_storage_for(num_items / 256, sizeof(T) + sizeof(Index));
        bool query = d_temp_storage == nullptr;
        if (cudaError_t error = a::two_phase(call, d_temp_storage, temp_storage_bytes, required)) return error;
        if (query) return cudaSuccess;
        // CUB's answer for no items: index 1 and the operator's identity.
        T value = a::identity_of<T>(op);
        if (num_items == 0) index = 1;
        else if (cudaError_t error = cudaMemcpy(&value, a::raw(d_in) + index, sizeof value, cudaMemcpyDeviceToHost)) return error;
        Index key = static_cast<Index>(index);
        if (d_pair_out) {
            KeyValuePair<Index, Value> pair(key, value);
            return cudaMemcpy(d_pair_out, &pair, sizeof pair, cudaMemcpyHostToDevice);
        }
        if (cudaError_t error = cudaMemcpy(d_value_out, &value, sizeof value, cudaMemcpyHostToDevice)) return error;
        return cudaMemcpy(d_index_out, &key, sizeof key, cudaMemcpyHostToDevice);
    }

public:
    template <class In, class Out, class N>
    static cudaError_t Sum(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out, N num_items,
                           cudaStream_t = 0, CUDAJUDGE_CALL_SITE) {
        using T = ::cudajudge::algorithms::value_of<In>;
        return reduce("cub::DeviceReduce::Sum", CUDAJUDGE_OP_SUM, d_temp_storage, temp_storage_bytes, d_in, d_out,
                      num_items, T{}, site.value);
    }

    template <class In, class Out, class N>
    static cudaError_t Min(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out, N num_items,
                           cudaStream_t = 0, CUDAJUDGE_CALL_SITE) {
        using T = ::cudajudge::algorithms::value_of<In>;
        return reduce("cub::DeviceReduce::Min", CUDAJUDGE_OP_MIN, d_temp_storage, temp_storage_bytes, d_in, d_out,
                      num_items, ::cudajudge::algorithms::identity_of<T>(CUDAJUDGE_OP_MIN), site.value);
    }

    template <class In, class Out, class N>
    static cudaError_t Max(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out, N num_items,
                           cudaStream_t = 0, CUDAJUDGE_CALL_SITE) {
        using T = ::cudajudge::algorithms::value_of<In>;
        return reduce("cub::DeviceReduce::Max", CUDAJUDGE_OP_MAX, d_temp_storage, temp_storage_bytes, d_in, d_out,
                      num_items, ::cudajudge::algorithms::identity_of<T>(CUDAJUDGE_OP_MAX), site.value);
    }

    template <class In, class Out, class N, class Op, class Init>
    static cudaError_t Reduce(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out, N num_items,
                              Op, Init init, cudaStream_t = 0, CUDAJUDGE_CALL_SITE) {
        constexpr int op = ::cudajudge::algorithms::operator_of<Op>;
        static_assert(op != CUDAJUDGE_OP_NONE, "cub::DeviceReduce::Reduce: " CUDAJUDGE_OPERATOR_MESSAGE);
        return reduce("cub::DeviceReduce::Reduce", op, d_temp_storage, temp_storage_bytes, d_in, d_out, num_items,
                      init, site.value);
    }

    template <class In, class Index, class Value, class N>
    static cudaError_t ArgMin(void* d_temp_storage, size_t& temp_storage_bytes, In d_in,
                              KeyValuePair<Index, Value>* d_out, N num_items, cudaStream_t = 0, CUDAJUDGE_CALL_SITE) {
        return arg_reduce<In, Index, Value>("cub::DeviceReduce::ArgMin", CUDAJUDGE_OP_MIN, d_temp_storage,
                                            temp_storage_bytes, d_in, nullptr, nullptr, d_out, num_items, site.value);
    }

    template <class In, class Index, class Value, class N>
    static cudaError_t ArgMax(void* d_temp_storage, size_t& temp_storage_bytes, In d_in,
                              KeyValuePair<Index, Value>* d_out, N num_items, cudaStream_t = 0, CUDAJUDGE_CALL_SITE) {
        return arg_reduce<In, Index, Value>("cub::DeviceReduce::ArgMax", CUDAJUDGE_OP_MAX, d_temp_storage,
                                            temp_storage_bytes, d_in, nullptr, nullptr, d_out, num_items, site.value);
    }

    // CCCL 3's form: the extremum and its index in outputs of their own.
    template <class In, class Value, class Index, class N>
    static cudaError_t ArgMin(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Value* d_min_out,
                              Index* d_index_out, N num_items, cudaStream_t = 0, CUDAJUDGE_CALL_SITE) {
        return arg_reduce<In, Index, Value>("cub::DeviceReduce::ArgMin", CUDAJUDGE_OP_MIN, d_temp_storage,
                                            temp_storage_bytes, d_in, d_min_out, d_index_out, nullptr, num_items,
                                            site.value);
    }

    template <class In, class Value, class Index, class N>
    static cudaError_t ArgMax(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Value* d_max_out,
                              Index* d_index_out, N num_items, cudaStream_t = 0, CUDAJUDGE_CALL_SITE) {
        return arg_reduce<In, Index, Value>("cub::DeviceReduce::ArgMax", CUDAJUDGE_OP_MAX, d_temp_storage,
                                            temp_storage_bytes, d_in, d_max_out, d_index_out, nullptr, num_items,
                                            site.value);
    }
};

}  // namespace cub
