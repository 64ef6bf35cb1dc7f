// cub::DeviceHistogram::HistogramEven in host code, on both backends (see cudajudge/device_algorithms.h).
#pragma once
#include <cudajudge/device_algorithms.h>

namespace cub {

struct DeviceHistogram {
    // num_levels - 1 bins of equal width over [lower_level, upper_level); samples outside are not counted.
    template <class Samples, class Counter, class Level, class N>
    static cudaError_t HistogramEven(void* d_temp_storage, size_t& temp_storage_bytes, Samples d_samples,
                                     Counter* d_histogram, int num_levels, Level lower_level, Level upper_level,
                                     N num_samples, cudaStream_t = 0, CUDAJUDGE_CALL_SITE) {
        namespace a = ::cudajudge::algorithms;
        using T = a::value_of<Samples>;
        static_assert(std::is_integral_v<Counter>, "cub::DeviceHistogram::HistogramEven: counters are integers");
        a::Call call("cub::DeviceHistogram::HistogramEven", site.value, CUDAJUDGE_ALGO_HISTOGRAM_EVEN);
        call.items<T>(a::raw(d_samples), nullptr, num_samples);
        call.aux_out = d_histogram;
        call.aux_type = a::item_type<Counter>();
        call.num_segments = num_levels;
        call.lower = static_cast<double>(lower_level);
        call.upper = static_cast<double>(upper_level);
        if (num_levels < 2) {
            call.refused_because = "cub::DeviceHistogram::HistogramEven on line " + std::to_string(site.value) +
                                   ": num_levels is " + std::to_string(num_levels) +
                                   "; num_levels - 1 bins need at least 2 levels";
            call.refusal = call.refused_because.c_str();
        }
        return a::two_phase(call, d_temp_storage, temp_storage_bytes,
                            a::temp_storage_for(num_levels > 0 ? num_levels : 0, 4 * sizeof(Counter)));
    }
};

}  // namespace cub
