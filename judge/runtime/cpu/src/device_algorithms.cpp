// Device-wide algorithms (CUB's Device*, Thrust's) on the CPU backend: sequential, on host memory,
// with every array the call reads or writes checked against its cudaMalloc buffer first.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "../../host_std/cudajudge/device_algorithm_abi.h"
#include "device_access.h"
#include "device_memory.h"
#include "error_state.h"
#include "memory_observer.h"
#include "outcome.h"
#include "runtime.h"

using namespace cudajudge::detail;

namespace {

template <class F>
auto visit_type(int type, F&& f) {
    switch (type) {
        case CUDAJUDGE_T_I8: return f(int8_t{});
        case CUDAJUDGE_T_U8: return f(uint8_t{});
        case CUDAJUDGE_T_I16: return f(int16_t{});
        case CUDAJUDGE_T_U16: return f(uint16_t{});
        case CUDAJUDGE_T_I32: return f(int32_t{});
        case CUDAJUDGE_T_U32: return f(uint32_t{});
        case CUDAJUDGE_T_I64: return f(int64_t{});
        case CUDAJUDGE_T_U64: return f(uint64_t{});
        case CUDAJUDGE_T_F32: return f(float{});
        default: return f(double{});
    }
}

size_t type_bytes(int type) {
    return visit_type(type, [](auto v) { return sizeof v; });
}

template <class T>
T read_value(const unsigned char (&bytes)[8]) {
    T value;
    std::memcpy(&value, bytes, sizeof value);
    return value;
}

template <class T>
T apply(int op, T a, T b) {
    if (op == CUDAJUDGE_OP_MIN) return b < a ? b : a;
    if (op == CUDAJUDGE_OP_MAX) return a < b ? b : a;
    return static_cast<T>(a + b);
}

// op(init, items[0, count)) reduced in pairs, as a device reduction's tree rounds it (a sequential
// float sum rounds worse).
template <class T, class R>
R tree_reduce(const T* items, size_t count, int op) {
    if (count == 1) return static_cast<R>(items[0]);
    const size_t half = count / 2;
    return apply<R>(op, tree_reduce<T, R>(items, half, op), tree_reduce<T, R>(items + half, count - half, op));
}

template <class T, class R>
R reduce(const T* items, size_t count, int op, R init) {
    return count ? apply<R>(op, init, tree_reduce<T, R>(items, count, op)) : init;
}

// An inclusive scan in place, rounded as a device scan rounds it: each tile of 256 items scanned as a
// tree (log-step), the tiles' totals scanned the same way and added to the tiles after the first.
template <class T>
void tree_scan(T* items, size_t count, int op) {
    constexpr size_t tile = 256;
    for (size_t start = 0; start < count; start += tile) {
        const size_t length = std::min(tile, count - start);
        for (size_t offset = 1; offset < length; offset *= 2)
            for (size_t i = length - 1; i >= offset; --i) items[start + i] = apply<T>(op, items[start + i - offset], items[start + i]);
    }
    if (count <= tile) return;
    std::vector<T> totals;
    for (size_t start = 0; start < count; start += tile) totals.push_back(items[std::min(start + tile, count) - 1]);
    tree_scan(totals.data(), totals.size(), op);
    for (size_t start = tile; start < count; start += tile)
        for (size_t i = start; i < std::min(start + tile, count); ++i) items[i] = apply<T>(op, totals[start / tile - 1], items[i]);
}

// The indices of `keys` in the order a stable sort puts them (one instantiation of the sort for every key
// type: the key types' own sorts made this file take seconds longer to compile than all the others).
std::vector<size_t> stable_order(const std::vector<uint64_t>& keys, bool descending) {
    std::vector<size_t> order(keys.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return descending ? keys[b] < keys[a] : keys[a] < keys[b];
    });
    return order;
}

// The unsigned bits a radix sort orders by: floats twiddled so that their order is the bits' order,
// -0.0 sorted as +0.0, as CUB does.
template <class T>
uint64_t radix_bits(T key) {
    if constexpr (std::is_floating_point_v<T>) {
        using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
        if (key == T(0)) key = T(0);
        U bits;
        std::memcpy(&bits, &key, sizeof bits);
        const U sign = U(1) << (8 * sizeof(U) - 1);
        return (bits & sign) ? U(~bits) : U(bits | sign);
    } else if constexpr (std::is_signed_v<T>) {
        using U = std::make_unsigned_t<T>;
        return static_cast<U>(static_cast<U>(key) ^ (U(1) << (8 * sizeof(U) - 1)));
    } else {
        return static_cast<uint64_t>(key);
    }
}

class AlgorithmRun {
public:
    explicit AlgorithmRun(const cudajudge_algorithm_call& call) : c_(call) {}

    cudaError_t run() {
        if (cudaError_t sticky = sticky_error()) return sticky;
        if (c_.refusal) return refuse(c_.refusal);
        if (c_.temp && !check(c_.temp, c_.temp_bytes, "its temporary storage")) return failure_;
        return visit_type(c_.item_type, [&](auto item) { return dispatch<decltype(item)>(); });
    }

private:
    const cudajudge_algorithm_call& c_;
    cudaError_t failure_ = cudaSuccess;

    std::string where() const { return std::string(c_.name) + " on line " + std::to_string(c_.line); }

    cudaError_t refuse(const std::string& why) {
        outcome().record_error(Verdict::runtime_error, "device_algorithm", why);
        failure_ = note_error(cudaErrorInvalidValue);
        return failure_;
    }

    bool check(const void* ptr, size_t bytes, const char* what) {
        if (bytes == 0) return true;
        if (!ptr) {
            refuse(where() + " was given a null pointer for " + what);
            return false;
        }
        std::string overrun = device_memory().overrun(ptr, bytes);
        if (!overrun.empty()) {
            refuse(where() + ": " + what + " touches " + overrun);
            return false;
        }
        if (device_memory().holds(ptr)) return true;
        if (std::optional<std::string> past = named_overrun(ptr, bytes)) {
            if (past->empty()) return true;
            refuse(where() + ": " + what + " runs " + *past);
            return false;
        }
        refuse(where() + ": " + what + " is not device memory (a host pointer?); device-wide algorithms read and "
               "write device memory only, as on a GPU");
        return false;
    }

    size_t n() const { return static_cast<size_t>(c_.num_items); }

    template <class R, class V>
    void store_result(V value) {
        R converted = static_cast<R>(value);
        std::memcpy(c_.result, &converted, sizeof converted);
    }

    template <class V>
    bool write_result(V value) {
        if (!c_.result_on_host && !check(c_.result, type_bytes(c_.result_type), "its result")) return false;
        if (!c_.result) return refuse(where() + " was given a null pointer for its result"), false;
        visit_type(c_.result_type, [&](auto r) { store_result<decltype(r)>(value); });
        return true;
    }

    template <class T>
    cudaError_t dispatch() {
        const T* in = static_cast<const T*>(c_.in);
        T* out = static_cast<T*>(c_.out);
        switch (c_.kind) {
            case CUDAJUDGE_ALGO_REDUCE:
                return reduce_all<T>(in);
            case CUDAJUDGE_ALGO_ARG_REDUCE:
                return arg_reduce<T>(in);
            case CUDAJUDGE_ALGO_SCAN:
                return scan_all<T>(in, out);
            case CUDAJUDGE_ALGO_RADIX_SORT:
            case CUDAJUDGE_ALGO_SORT:
                return sort<T>(in, out);
            case CUDAJUDGE_ALGO_SELECT_FLAGGED:
            case CUDAJUDGE_ALGO_UNIQUE:
            case CUDAJUDGE_ALGO_RUN_LENGTH:
                return select<T>(in, out);
            case CUDAJUDGE_ALGO_HISTOGRAM_EVEN:
                return histogram<T>(in);
            case CUDAJUDGE_ALGO_SEGMENTED_REDUCE:
                return segmented_reduce<T>(in, out);
            case CUDAJUDGE_ALGO_FILL:
            case CUDAJUDGE_ALGO_SEQUENCE:
                return fill_all<T>(out);
            case CUDAJUDGE_ALGO_COUNT:
                return count_all<T>(in);
            case CUDAJUDGE_ALGO_COPY:
                if (!check(in, n() * sizeof(T), "its input") || !check(out, n() * sizeof(T), "its output")) return failure_;
                std::memmove(out, in, n() * sizeof(T));
                return failure_;
            default:
                return refuse(where() + ": unknown algorithm");
        }
    }

    template <class T>
    cudaError_t reduce_all(const T* in) {
        if (!check(in, n() * sizeof(T), "its input")) return failure_;
        return visit_type(c_.result_type, [&](auto r) {
            using R = decltype(r);
            write_result(reduce<T, R>(in, n(), c_.op, read_value<R>(c_.init)));
            return failure_;
        });
    }

    template <class T>
    cudaError_t arg_reduce(const T* in) {
        if (!check(in, n() * sizeof(T), "its input")) return failure_;
        size_t best = 0;
        for (size_t i = 1; i < n(); ++i)
            if (c_.op == CUDAJUDGE_OP_MIN ? in[i] < in[best] : in[best] < in[i]) best = i;
        write_result(static_cast<long long>(best));
        return failure_;
    }

    template <class T>
    cudaError_t scan_all(const T* in, T* out) {
        const size_t bytes = n() * sizeof(T);
        if (!check(in, bytes, "its input") || !check(out, bytes, "its output")) return failure_;
        std::vector<T> result(in, in + n());
        tree_scan(result.data(), n(), c_.op);
        if (c_.exclusive && n()) {
            const T init = read_value<T>(c_.init);
            for (size_t i = n() - 1; i > 0; --i) result[i] = apply<T>(c_.op, init, result[i - 1]);
            result[0] = init;
        }
        std::copy(result.begin(), result.end(), out);
        return failure_;
    }

    template <class T>
    cudaError_t fill_all(T* out) {
        if (!check(out, n() * sizeof(T), "its output")) return failure_;
        const T start = read_value<T>(c_.init), step = read_value<T>(c_.step);
        for (size_t i = 0; i < n(); ++i)
            out[i] = c_.kind == CUDAJUDGE_ALGO_FILL ? start : static_cast<T>(start + static_cast<T>(i) * step);
        return failure_;
    }

    template <class T>
    cudaError_t count_all(const T* in) {
        if (!check(in, n() * sizeof(T), "its input")) return failure_;
        const T value = read_value<T>(c_.init);
        write_result(static_cast<long long>(std::count(in, in + n(), value)));
        return failure_;
    }

    template <class T>
    cudaError_t sort(const T* in, T* out) {
        const size_t bytes = n() * sizeof(T), value_bytes = n() * static_cast<size_t>(c_.value_bytes);
        if (!check(in, bytes, "its input keys") || !check(out, bytes, "its output keys")) return failure_;
        if (c_.value_bytes && (!check(c_.values_in, value_bytes, "its input values") ||
                               !check(c_.values_out, value_bytes, "its output values")))
            return failure_;
        std::vector<uint64_t> order_key(n());
        for (size_t i = 0; i < n(); ++i) {
            uint64_t bits = radix_bits(in[i]);
            if (c_.kind == CUDAJUDGE_ALGO_RADIX_SORT) {
                const int width = c_.end_bit - c_.begin_bit;
                bits = width >= 64 ? bits >> c_.begin_bit : (bits >> c_.begin_bit) & ((uint64_t(1) << width) - 1);
            }
            order_key[i] = bits;
        }
        const std::vector<size_t> order = stable_order(order_key, c_.descending);
        std::vector<T> keys(n());
        for (size_t i = 0; i < n(); ++i) keys[i] = in[order[i]];
        if (c_.value_bytes) {
            const size_t size = static_cast<size_t>(c_.value_bytes);
            const auto* values = static_cast<const unsigned char*>(c_.values_in);
            std::vector<unsigned char> sorted(value_bytes);
            for (size_t i = 0; i < n(); ++i) std::memcpy(&sorted[i * size], values + order[i] * size, size);
            std::memcpy(c_.values_out, sorted.data(), value_bytes);
        }
        std::copy(keys.begin(), keys.end(), out);
        return failure_;
    }

    template <class T>
    cudaError_t select(const T* in, T* out) {
        const size_t bytes = n() * sizeof(T);
        if (!check(in, bytes, "its input")) return failure_;
        std::vector<T> kept;
        std::vector<long long> runs;
        if (c_.kind == CUDAJUDGE_ALGO_SELECT_FLAGGED) {
            if (!check(c_.aux, n() * type_bytes(c_.aux_type), "its flags")) return failure_;
            visit_type(c_.aux_type, [&](auto flag) {
                const auto* flags = static_cast<const decltype(flag)*>(c_.aux);
                for (size_t i = 0; i < n(); ++i)
                    if (flags[i] != 0) kept.push_back(in[i]);
            });
        } else {
            for (size_t i = 0; i < n(); ++i) {
                if (i == 0 || !(in[i] == in[i - 1])) {
                    kept.push_back(in[i]);
                    runs.push_back(0);
                }
                ++runs.back();
            }
        }
        if (!check(out, kept.size() * sizeof(T), "its output")) return failure_;
        if (c_.kind == CUDAJUDGE_ALGO_RUN_LENGTH) {
            if (!check(c_.aux_out, runs.size() * type_bytes(c_.aux_type), "its run lengths")) return failure_;
            visit_type(c_.aux_type, [&](auto length) {
                auto* lengths = static_cast<decltype(length)*>(c_.aux_out);
                for (size_t i = 0; i < runs.size(); ++i) lengths[i] = static_cast<decltype(length)>(runs[i]);
            });
        }
        std::copy(kept.begin(), kept.end(), out);
        write_result(static_cast<long long>(kept.size()));
        return failure_;
    }

    template <class T>
    cudaError_t histogram(const T* in) {
        const long long bins = c_.num_segments - 1;
        if (!check(in, n() * sizeof(T), "its samples") ||
            !check(c_.aux_out, static_cast<size_t>(bins) * type_bytes(c_.aux_type), "its histogram"))
            return failure_;
        std::vector<long long> counts(static_cast<size_t>(bins), 0);
        for (size_t i = 0; i < n(); ++i) {
            const double sample = static_cast<double>(in[i]);
            if (!(sample >= c_.lower && sample < c_.upper)) continue;
            long long bin = std::is_integral_v<T>
                                ? static_cast<long long>((static_cast<long long>(in[i]) - static_cast<long long>(c_.lower)) *
                                                         bins / (static_cast<long long>(c_.upper) - static_cast<long long>(c_.lower)))
                                : static_cast<long long>((sample - c_.lower) * (static_cast<double>(bins) / (c_.upper - c_.lower)));
            counts[static_cast<size_t>(std::min(std::max(bin, 0LL), bins - 1))]++;
        }
        visit_type(c_.aux_type, [&](auto counter) {
            auto* histogram = static_cast<decltype(counter)*>(c_.aux_out);
            for (long long b = 0; b < bins; ++b) histogram[b] = static_cast<decltype(counter)>(counts[static_cast<size_t>(b)]);
        });
        return failure_;
    }

    template <class T>
    cudaError_t segmented_reduce(const T* in, T* out) {
        const size_t segments = static_cast<size_t>(c_.num_segments);
        const size_t offset_bytes = segments * type_bytes(c_.aux_type);
        if (!check(c_.aux, offset_bytes, "its begin offsets") || !check(c_.aux_end, offset_bytes, "its end offsets") ||
            !check(out, segments * sizeof(T), "its output"))
            return failure_;
        return visit_type(c_.aux_type, [&](auto offset) {
            using O = decltype(offset);
            const auto* begins = static_cast<const O*>(c_.aux);
            const auto* ends = static_cast<const O*>(c_.aux_end);
            std::vector<T> result(segments);
            for (size_t s = 0; s < segments; ++s) {
                const long long begin = static_cast<long long>(begins[s]), end = static_cast<long long>(ends[s]);
                if (end > begin && (begin < 0 || !check(in + begin, static_cast<size_t>(end - begin) * sizeof(T),
                                                        "a segment of its input")))
                    return failure_ ? failure_ : refuse(where() + ": segment " + std::to_string(s) + " begins at offset " +
                                                        std::to_string(begin));
                const T init = read_value<T>(c_.init);
                result[s] = reduce<T, T>(in + begin, end > begin ? static_cast<size_t>(end - begin) : 0, c_.op, init);
            }
            std::copy(result.begin(), result.end(), out);
            return failure_;
        });
    }
};

}  // namespace

extern "C" int cudajudge_device_algorithm(const cudajudge_algorithm_call* call) {
    const DeviceAccess access;
    LaunchRecord record{call->name, {0, 0, 0}, {0, 0, 0}, 0, call->line, cudaSuccess};
    const long index = outcome().add_launch(std::move(record));
    const cudaError_t status = AlgorithmRun(*call).run();
    outcome().set_launch_status(index, status);
    return status;
}
