// cub::DeviceRunLengthEncode in host code, on both backends (see cudajudge/device_algorithms.h).
#pragma once
#include <cudajudge/device_algorithms.h>

namespace cub {

struct DeviceRunLengthEncode {
    template <class In, class Out, class Length, class Runs, class N>
    static cudaError_t Encode(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_unique_out,
                              Length* d_counts_out, Runs* d_num_runs_out, N num_items, cudaStream_t = 0,
                              CUDAJUDGE_CALL_SITE) {
        namespace a = ::cudajudge::algorithms;
        using T = a::value_of<In>;
        static_assert(std::is_same_v<T, a::value_of<Out>>, "cub::DeviceRunLengthEncode::Encode writes the type it reads: pass an output of the input's type");
        static_assert(std::is_integral_v<Length>, "cub::DeviceRunLengthEncode::Encode: run lengths are integers");
        a::Call call("cub::DeviceRunLengthEncode::Encode", site.value, CUDAJUDGE_ALGO_RUN_LENGTH);
        call.items<T>(a::raw(d_in), a::raw(d_unique_out), num_items);
        call.aux_out = d_counts_out;
        call.aux_type = a::item_type<Length>();
        call.result_to<std::remove_cv_t<Runs>>(d_num_runs_out, false);
        return a::two_phase(call, d_temp_storage, temp_storage_bytes, a::temp_storage_for(num_items / 128, 16));
    }
};

}  // namespace cub
