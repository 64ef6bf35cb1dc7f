// cub::DeviceSelect in host code, on both backends (see cudajudge/device_algorithms.h).
#pragma once
#include <cudajudge/functor_calls.h>

namespace cub {

struct DeviceSelect {
private:
    template <class In, class Out, class Count>
    static cudaError_t select(const char* name, int kind, void* d_temp_storage, size_t& temp_storage_bytes, In d_in,
                              const void* flags, int flag_type, Out d_out, Count* d_num_selected_out,
                              long long num_items, int line, size_t required) {
        namespace a = ::cudajudge::algorithms;
        using T = a::value_of<In>;
        static_assert(std::is_same_v<T, a::value_of<Out>>, "cub::DeviceSelect here writes the type it reads: pass an output of the input's type");
        a::Call call(name, line, kind);
        call.items<T>(a::raw(d_in), a::raw(d_out), num_items);
        call.aux = flags;
        call.aux_type = flag_type;
        call.result_to<std::remove_cv_t<Count>>(d_num_selected_out, false);
        return a::two_phase(call, d_temp_storage, temp_storage_bytes, required);
    }

    static size_t selection_storage(long long num_items) {
        return ::cudajudge::algorithms::temp_storage_for(num_items / 128, 16);
    }

public:
    template <class In, class Flag, class Out, class Count, class N>
    static cudaError_t Flagged(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, const Flag* d_flags,
                               Out d_out, Count* d_num_selected_out, N num_items, cudaStream_t = 0,
                               CUDAJUDGE_CALL_SITE) {
        constexpr int flag_type = std::is_same_v<std::remove_cv_t<Flag>, bool>
                                      ? CUDAJUDGE_T_U8 : ::cudajudge::algorithms::item_type<Flag>();
        static_assert(flag_type != CUDAJUDGE_T_NONE, "cub::DeviceSelect::Flagged: flags must be bool, integers or floats");
        return select("cub::DeviceSelect::Flagged", CUDAJUDGE_ALGO_SELECT_FLAGGED, d_temp_storage, temp_storage_bytes,
                      d_in, d_flags, flag_type, d_out, d_num_selected_out, num_items, site.value, selection_storage(num_items));
    }

    // select_op runs in one of the judge's kernels (cudajudge/functor_calls.h) and writes its 0/1
    // answers into the temporary storage, which the selection then reads as flags.
    template <class In, class Out, class Count, class N, class Op>
    static cudaError_t If(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out, Count* d_num_selected_out,
                          N num_items, Op select_op, cudaStream_t = 0, CUDAJUDGE_CALL_SITE) {
        namespace a = ::cudajudge::algorithms;
        const size_t required = a::temp_storage_for(num_items, 1);
        auto* flags = static_cast<unsigned char*>(d_temp_storage);
        if (flags != nullptr && temp_storage_bytes >= required)
            a::map<::cudajudge::shown_as::cub::DeviceSelect::If>("cub::DeviceSelect::If", site.value, select_op,
                                                                 a::raw(d_in), flags, num_items);
        return select("cub::DeviceSelect::If", CUDAJUDGE_ALGO_SELECT_FLAGGED, d_temp_storage, temp_storage_bytes, d_in,
                      flags, CUDAJUDGE_T_U8, d_out, d_num_selected_out, num_items, site.value, required);
    }

    template <class In, class Out, class Count, class N>
    static cudaError_t Unique(void* d_temp_storage, size_t& temp_storage_bytes, In d_in, Out d_out,
                              Count* d_num_selected_out, N num_items, cudaStream_t = 0, CUDAJUDGE_CALL_SITE) {
        return select("cub::DeviceSelect::Unique", CUDAJUDGE_ALGO_UNIQUE, d_temp_storage, temp_storage_bytes, d_in,
                      nullptr, CUDAJUDGE_T_NONE, d_out, d_num_selected_out, num_items, site.value, selection_storage(num_items));
    }
};

}  // namespace cub
