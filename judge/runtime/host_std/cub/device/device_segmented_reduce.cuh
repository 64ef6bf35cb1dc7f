// cub::DeviceSegmentedReduce in host code, on both backends (see cudajudge/device_algorithms.h).
#pragma once
#include <cudajudge/device_algorithms.h>

namespace cub {

struct DeviceSegmentedReduce {
private:
    template <class In, class Out, class Offset, class Init>
    static cudaError_t reduce(const char* name, int op, void* d_temp_storage, size_t& temp_storage_bytes, In d_in,
                              Out d_out, long long num_segments, const Offset* d_begin_offsets,
                              const Offset* d_end_offsets, Init init, int line) {
        namespace a = ::cudajudge::algorithms;
        using T = a::value_of<In>;
        static_assert(std::is_same_v<T, a::value_of<Out>>, "cub::DeviceSegmentedReduce here writes the type it reads: pass an output of the input's type");
        static_assert(std::is_integral_v<Offset>, "cub::DeviceSegmentedReduce: offsets are integers");
        a::Call call(name, line, CUDAJUDGE_ALGO_SEGMENTED_REDUCE);
        call.op = op;
        call.items<T>(a::raw(d_in), a::raw(d_out), 0);
        call.num_segments = num_segments;
        call.aux = d_begin_offsets;
        call.aux_end = d_end_offsets;
        call.aux_type = a::item_type<Offset>();
        call.set_value<T>(call.init, init);
        if (num_segments < 0) {
            call.refused_because = std::string(name) + " on line " + std::to_string(line) + ": num_segments is " +
                                   std::to_string(num_segments) + "; a count cannot be negative";
            call.refusal = call.refused_because.c_str();
        }
        return a::two_phase(call, d_temp_storage, temp_storage_bytes, a::temp_storage_for(num_segments, 16));
    }

public:
#define CUDAJUDGE_SEGMENTED(NAME, OP)                                                                               \
    template <class In, class Out, class Offset, class N>                                                         \
    static cudaError_t NAME(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out, N num_segments,     \
                            const Offset* d_begin_offsets, const Offset* d_end_offsets, cudaStream_t = 0,           \
                            CUDAJUDGE_CALL_SITE) {                                                                  \
        using T = ::cudajudge::algorithms::value_of<In>;                                                          \
        return reduce("cub::DeviceSegmentedReduce::" #NAME, OP, d_temp_storage, temp_storage_bytes, d_in, d_out,      \
                      num_segments, d_begin_offsets, d_end_offsets, ::cudajudge::algorithms::identity_of<T>(OP),     \
                      site.value);                                                                                   \
    }
    CUDAJUDGE_SEGMENTED(Sum, CUDAJUDGE_OP_SUM)
    CUDAJUDGE_SEGMENTED(Min, CUDAJUDGE_OP_MIN)
    CUDAJUDGE_SEGMENTED(Max, CUDAJUDGE_OP_MAX)
#undef CUDAJUDGE_SEGMENTED

    template <class In, class Out, class Offset, class Op, class Init, class N>
    static cudaError_t Reduce(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out, N num_segments,
                              const Offset* d_begin_offsets, const Offset* d_end_offsets, Op, Init init,
                              cudaStream_t = 0, CUDAJUDGE_CALL_SITE) {
        constexpr int op = ::cudajudge::algorithms::operator_of<Op>;
        static_assert(op != CUDAJUDGE_OP_NONE, "cub::DeviceSegmentedReduce::Reduce: " CUDAJUDGE_OPERATOR_MESSAGE);
        return reduce("cub::DeviceSegmentedReduce::Reduce", op, d_temp_storage, temp_storage_bytes, d_in, d_out,
                      num_segments, d_begin_offsets, d_end_offsets, init, site.value);
    }
};

}  // namespace cub
