// cub::DeviceScan in host code, on both backends (see cudajudge/device_algorithms.h).
#pragma once
#include <cudajudge/device_algorithms.h>

namespace cub {

struct DeviceScan {
private:
    template <class In, class Out, class Init>
    static cudaError_t scan(const char* name, int op, bool exclusive, void* d_temp_storage,
                            size_t& temp_storage_bytes, In d_in, Out d_out, Init init, long long num_items, int line) {
        namespace a = ::cudajudge::algorithms;
        using T = a::value_of<In>;
        static_assert(std::is_same_v<T, a::value_of<Out>>, "cub::DeviceScan here writes the type it reads: pass an output of the input's type");
        a::Call call(name, line, CUDAJUDGE_ALGO_SCAN);
        call.op = op;
        call.exclusive = exclusive;
        call.items<T>(a::raw(d_in), a::raw(d_out), num_items);
        call.set_value<T>(call.init, init);
        return a::two_phase(call, d_temp_storage, temp_storage_bytes, a::temp_storage_for(num_items / 128, 16));
    }

    template <class Op>
    static constexpr int checked(Op) {
        constexpr int op = ::cudajudge::algorithms::operator_of<Op>;
        static_assert(op != CUDAJUDGE_OP_NONE, "cub::DeviceScan: " CUDAJUDGE_OPERATOR_MESSAGE);
        return op;
    }

public:
    template <class In, class Out, class N>
    static cudaError_t InclusiveSum(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out,
                                    N num_items, cudaStream_t = 0, CUDAJUDGE_CALL_SITE) {
        return scan("cub::DeviceScan::InclusiveSum", CUDAJUDGE_OP_SUM, false, d_temp_storage, temp_storage_bytes,
                    d_in, d_out, 0, num_items, site.value);
    }

    template <class Data, class N, class = std::enable_if_t<std::is_integral_v<N>>>
    static cudaError_t InclusiveSum(void* d_temp_storage, size_t& temp_storage_bytes, Data d_data, N num_items,
                                    cudaStream_t = 0, CUDAJUDGE_CALL_SITE) {
        return scan("cub::DeviceScan::InclusiveSum", CUDAJUDGE_OP_SUM, false, d_temp_storage, temp_storage_bytes,
                    d_data, d_data, 0, num_items, site.value);
    }

    template <class In, class Out, class N>
    static cudaError_t ExclusiveSum(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out,
                                    N num_items, cudaStream_t = 0, CUDAJUDGE_CALL_SITE) {
        return scan("cub::DeviceScan::ExclusiveSum", CUDAJUDGE_OP_SUM, true, d_temp_storage, temp_storage_bytes,
                    d_in, d_out, 0, num_items, site.value);
    }

    template <class Data, class N, class = std::enable_if_t<std::is_integral_v<N>>>
    static cudaError_t ExclusiveSum(void* d_temp_storage, size_t& temp_storage_bytes, Data d_data, N num_items,
                                    cudaStream_t = 0, CUDAJUDGE_CALL_SITE) {
        return scan("cub::DeviceScan::ExclusiveSum", CUDAJUDGE_OP_SUM, true, d_temp_storage, temp_storage_bytes,
                    d_data, d_data, 0, num_items, site.value);
    }

    template <class In, class Out, class Op, class N>
    static cudaError_t InclusiveScan(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out, Op op,
                                     N num_items, cudaStream_t = 0, CUDAJUDGE_CALL_SITE) {
        using T = ::cudajudge::algorithms::value_of<In>;
        constexpr int code = checked(Op{});
        return scan("cub::DeviceScan::InclusiveScan", code, false, d_temp_storage, temp_storage_bytes, d_in, d_out,
                    ::cudajudge::algorithms::identity_of<T>(code), num_items, site.value);
    }

    template <class In, class Out, class Op, class Init, class N>
    static cudaError_t ExclusiveScan(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out, Op op,
                                     Init init, N num_items, cudaStream_t = 0, CUDAJUDGE_CALL_SITE) {
        return scan("cub::DeviceScan::ExclusiveScan", checked(Op{}), true, d_temp_storage, temp_storage_bytes, d_in,
                    d_out, init, num_items, site.value);
    }
};

}  // namespace cub
