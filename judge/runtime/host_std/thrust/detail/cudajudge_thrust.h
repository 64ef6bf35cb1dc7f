// Thrust's algorithms for host code on device memory, on both backends: raw device pointers with
// the thrust::device (or thrust::cuda::par) policy, or thrust::device_ptr (thrust::device_vector's
// iterators, detail/cudajudge_vectors.h). Each call goes to the backend as a device-wide algorithm
// (see cudajudge/device_algorithms.h).
#pragma once
#include <cudajudge/functor_calls.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <type_traits>
#include <vector>

namespace thrust {

template <class T>
class device_ptr;

// An element of device memory named in host code (`*p`, `p[i]`, `v[i]`): read and written by copies,
// as Thrust's device_reference is; its address (`&v[0]`) is a device_ptr.
template <class T>
class device_reference {
public:
    using value_type = std::remove_cv_t<T>;

    explicit device_reference(T* ptr) : ptr_(ptr) {}
    operator value_type() const {
        value_type value;
        ::cudajudge::algorithms::device_copy(&value, ptr_, sizeof(value), cudaMemcpyDeviceToHost, 0);
        return value;
    }
    template <class U = T, class = std::enable_if_t<!std::is_const_v<U>>>
    device_reference& operator=(const value_type& value) {
        ::cudajudge::algorithms::device_copy(ptr_, &value, sizeof(value), cudaMemcpyHostToDevice, 0);
        return *this;
    }
    device_reference& operator=(const device_reference& other) { return *this = static_cast<value_type>(other); }
    device_ptr<T> operator&() const { return device_ptr<T>(ptr_); }

private:
    T* ptr_;
};

template <class T>
class device_ptr {
public:
    using element_type = T;
    using value_type = std::remove_cv_t<T>;
    using difference_type = std::ptrdiff_t;
    using pointer = device_ptr;
    using reference = device_reference<T>;
    using iterator_category = std::random_access_iterator_tag;

    device_ptr() : ptr_(nullptr) {}
    explicit device_ptr(T* ptr) : ptr_(ptr) {}
    template <class U, class = std::enable_if_t<std::is_convertible_v<U*, T*>>>
    device_ptr(const device_ptr<U>& other) : ptr_(other.get()) {}

    T* get() const { return ptr_; }
    reference operator*() const { return reference(ptr_); }
    reference operator[](difference_type n) const { return reference(ptr_ + n); }
    device_ptr operator+(difference_type n) const { return device_ptr(ptr_ + n); }
    device_ptr operator-(difference_type n) const { return device_ptr(ptr_ - n); }
    difference_type operator-(const device_ptr& other) const { return ptr_ - other.ptr_; }
    device_ptr& operator+=(difference_type n) { ptr_ += n; return *this; }
    device_ptr& operator-=(difference_type n) { ptr_ -= n; return *this; }
    device_ptr& operator++() { ++ptr_; return *this; }
    device_ptr& operator--() { --ptr_; return *this; }
    device_ptr operator++(int) { return device_ptr(ptr_++); }
    device_ptr operator--(int) { return device_ptr(ptr_--); }
    bool operator==(const device_ptr& other) const { return ptr_ == other.ptr_; }
    bool operator!=(const device_ptr& other) const { return ptr_ != other.ptr_; }
    bool operator<(const device_ptr& other) const { return ptr_ < other.ptr_; }
    bool operator>(const device_ptr& other) const { return ptr_ > other.ptr_; }
    bool operator<=(const device_ptr& other) const { return ptr_ <= other.ptr_; }
    bool operator>=(const device_ptr& other) const { return ptr_ >= other.ptr_; }

private:
    T* ptr_;
};

template <class T>
inline device_ptr<T> device_pointer_cast(T* ptr) { return device_ptr<T>(ptr); }
template <class T>
inline device_ptr<T> device_pointer_cast(device_ptr<T> ptr) { return ptr; }
template <class T>
inline T* raw_pointer_cast(device_ptr<T> ptr) { return ptr.get(); }
template <class T>
inline T* raw_pointer_cast(T* ptr) { return ptr; }

namespace detail {
struct device_policy {
    device_policy on(cudaStream_t) const { return *this; }
};
}  // namespace detail

inline constexpr detail::device_policy device{};
namespace cuda {
inline constexpr ::thrust::detail::device_policy par{};
inline constexpr ::thrust::detail::device_policy par_nosync{};
}  // namespace cuda

template <class T = void> using plus = std::plus<T>;
template <class T = void> using minus = std::minus<T>;
template <class T = void> using multiplies = std::multiplies<T>;
template <class T = void> using less = std::less<T>;
template <class T = void> using greater = std::greater<T>;
template <class T = void> using divides = std::divides<T>;
template <class T = void> using modulus = std::modulus<T>;
template <class T = void> using negate = std::negate<T>;
template <class T = void> using equal_to = std::equal_to<T>;
template <class T = void> using not_equal_to = std::not_equal_to<T>;
template <class T = void> using greater_equal = std::greater_equal<T>;
template <class T = void> using less_equal = std::less_equal<T>;
template <class T = void> using logical_and = std::logical_and<T>;
template <class T = void> using logical_or = std::logical_or<T>;
template <class T = void> using logical_not = std::logical_not<T>;
template <class T = void> using bit_and = std::bit_and<T>;
template <class T = void> using bit_or = std::bit_or<T>;
template <class T = void> using bit_xor = std::bit_xor<T>;
template <class T = void> using maximum = ::cuda::maximum<T>;
template <class T = void> using minimum = ::cuda::minimum<T>;

}  // namespace thrust

template <class T>
struct cudajudge::algorithms::device_iterator<thrust::device_ptr<T>> {
    static constexpr bool valid = true;
    using value_type = std::remove_cv_t<T>;
    static T* raw(thrust::device_ptr<T> p) { return p.get(); }
};

namespace thrust::cudajudge_detail {

namespace a = ::cudajudge::algorithms;
using Policy = ::thrust::detail::device_policy;

template <class It>
constexpr bool check_iterator() {
    static_assert(a::device_iterator<It>::valid,
                  "the judge runs Thrust's algorithms on raw device pointers (with thrust::device) and "
                  "thrust::device_ptr (a device_vector's iterators); other iterators (counting, transform, zip) "
                  "are not supported");
    return true;
}

template <class Comp, class T>
constexpr int order_of() {
    using C = std::remove_cv_t<Comp>;
    if constexpr (std::is_same_v<C, std::less<void>> || std::is_same_v<C, std::less<T>>) return 1;
    else if constexpr (std::is_same_v<C, std::greater<void>> || std::is_same_v<C, std::greater<T>>) return -1;
    else return 0;
}

template <class Keys, class Value, class Comp>
inline void sort(const char* name, Keys first, Keys last, Value* values, Comp, int line) {
    check_iterator<Keys>();
    using T = a::value_of<Keys>;
    constexpr int order = order_of<Comp, T>();
    static_assert(order != 0, "Thrust sorts here with thrust::less or thrust::greater: a comparator of your own "
                              "cannot run on the device here yet");
    a::Call call(name, line, CUDAJUDGE_ALGO_SORT);
    call.items<T>(a::raw(first), a::raw(first), last - first);
    call.descending = order < 0;
    if constexpr (!std::is_void_v<Value>) {
        call.values_in = values;
        call.values_out = values;
        call.value_bytes = sizeof(Value);
    }
    call.run();
}

// init reduced with op over the n items at `items` (device memory), as thrust::reduce reduces.
template <class T, class Init>
inline Init reduce_items(const char* name, int op, const T* items, long long n, Init init, int line) {
    Init result = init;
    a::Call call(name, line, CUDAJUDGE_ALGO_REDUCE);
    call.op = op;
    call.items<T>(items, nullptr, n);
    call.set_value<Init>(call.init, init);
    call.result_to<Init>(&result, true);
    call.run();
    return result;
}

template <class It, class Init, class Op>
inline Init reduce(It first, It last, Init init, Op, int line) {
    check_iterator<It>();
    constexpr int op = a::operator_of<Op>;
    static_assert(op != CUDAJUDGE_OP_NONE, "thrust::reduce: " CUDAJUDGE_OPERATOR_MESSAGE);
    using T = a::value_of<It>;
    static_assert(std::is_same_v<Init, T> || (a::is_item<Init> && sizeof(Init) >= 4),
                  "thrust::reduce accumulates in the type of init: give it the items' type, or a 32- or 64-bit "
                  "integer, float or double");
    return reduce_items<T>("thrust::reduce", op, a::raw(first), last - first, init, line);
}

template <class In, class Out, class Init, class Op>
inline Out scan(const char* name, bool exclusive, In first, In last, Out result, Init init, Op, int line) {
    check_iterator<In>();
    check_iterator<Out>();
    constexpr int op = a::operator_of<Op>;
    static_assert(op != CUDAJUDGE_OP_NONE, "thrust's scans: " CUDAJUDGE_OPERATOR_MESSAGE);
    using T = a::value_of<In>;
    static_assert(std::is_same_v<T, a::value_of<Out>>, "Thrust's scans here write the type they read: pass an output of the input's type");
    a::Call call(name, line, CUDAJUDGE_ALGO_SCAN);
    call.op = op;
    call.exclusive = exclusive;
    call.items<T>(a::raw(first), a::raw(result), last - first);
    call.set_value<T>(call.init, exclusive ? static_cast<T>(init) : a::identity_of<T>(op));
    call.run();
    return result + (last - first);
}

template <class It>
inline It extremum(const char* name, It first, It last, int op, int line) {
    check_iterator<It>();
    using T = a::value_of<It>;
    long long index = 0;
    a::Call call(name, line, CUDAJUDGE_ALGO_ARG_REDUCE);
    call.op = op;
    call.items<T>(a::raw(first), nullptr, last - first);
    call.result_to<long long>(&index, true);
    call.run();
    return first == last ? last : first + index;
}

template <class It, class T>
inline void fill(const char* name, int kind, It first, It last, T value, T step, int line) {
    check_iterator<It>();
    using V = a::value_of<It>;
    a::Call call(name, line, kind);
    call.items<V>(nullptr, a::raw(first), last - first);
    call.set_value<V>(call.init, value);
    call.set_value<V>(call.step, step);
    call.run();
}

template <class In, class Out, class Op>
inline Out transform(In first, In last, Out result, Op op, int line) {
    check_iterator<In>();
    check_iterator<Out>();
    a::map<::cudajudge::shown_as::thrust::transform>("thrust::transform", line, op, a::raw(first), a::raw(result),
                                                     last - first);
    return result + (last - first);
}

template <class In1, class In2, class Out, class Op>
inline Out transform(In1 first1, In1 last1, In2 first2, Out result, Op op, int line) {
    check_iterator<In1>();
    check_iterator<In2>();
    check_iterator<Out>();
    a::zip<::cudajudge::shown_as::thrust::transform>("thrust::transform", line, op, a::raw(first1), a::raw(first2),
                                                     a::raw(result), last1 - first1);
    return result + (last1 - first1);
}

template <class It, class Unary, class Init, class Binary>
inline Init transform_reduce(It first, It last, Unary unary, Init init, Binary, int line) {
    check_iterator<It>();
    constexpr int op = a::operator_of<Binary>;
    static_assert(op != CUDAJUDGE_OP_NONE, "thrust::transform_reduce: " CUDAJUDGE_OPERATOR_MESSAGE);
    static_assert(a::is_item<Init>, CUDAJUDGE_ITEMS_MESSAGE);
    const long long n = last - first;
    a::Scratch<Init> mapped(n, line);   // unary's results in init's type, which Thrust accumulates in
    if (mapped.status() != cudaSuccess) return init;
    a::map<::cudajudge::shown_as::thrust::transform_reduce>("thrust::transform_reduce", line, unary, a::raw(first),
                                                            mapped.get(), n);
    return reduce_items<Init>("thrust::transform_reduce", op, mapped.get(), n, init, line);
}

// init reduced with combine(a[i], b[i]) over i: the pairs combined by one of the judge's kernels into init's
// type, then reduced as thrust::reduce reduces.
template <class It1, class It2, class Init, class Reduce, class Combine>
inline Init inner_product(It1 first1, It1 last1, It2 first2, Init init, Reduce, Combine combine, int line) {
    check_iterator<It1>();
    check_iterator<It2>();
    constexpr int op = a::operator_of<Reduce>;
    static_assert(op != CUDAJUDGE_OP_NONE, "thrust::inner_product: " CUDAJUDGE_OPERATOR_MESSAGE);
    static_assert(a::is_item<Init>, CUDAJUDGE_ITEMS_MESSAGE);
    const long long n = last1 - first1;
    a::Scratch<Init> combined(n, line);
    if (combined.status() != cudaSuccess) return init;
    a::zip<::cudajudge::shown_as::thrust::inner_product>("thrust::inner_product", line, combine, a::raw(first1),
                                                         a::raw(first2), combined.get(), n);
    return reduce_items<Init>("thrust::inner_product", op, combined.get(), n, init, line);
}

// pred(stencil[i]) for each i, as 0/1 bytes: what copy_if and count_if select or count by.
template <class Shown, class Stencil, class Pred>
inline bool flag(const char* name, Stencil stencil, long long n, Pred pred, a::Scratch<unsigned char>& flags, int line) {
    check_iterator<Stencil>();
    if (flags.status() != cudaSuccess) return false;
    a::map<Shown>(name, line, pred, a::raw(stencil), flags.get(), n);
    return true;
}

template <class In, class Stencil, class Out, class Pred>
inline Out copy_if(In first, In last, Stencil stencil, Out result, Pred pred, int line) {
    check_iterator<In>();
    check_iterator<Out>();
    using T = a::value_of<In>;
    static_assert(std::is_same_v<T, a::value_of<Out>>, "thrust::copy_if here copies between arrays of one type");
    const long long n = last - first;
    a::Scratch<unsigned char> flags(n, line);
    if (!flag<::cudajudge::shown_as::thrust::copy_if>("thrust::copy_if", stencil, n, pred, flags, line)) return result;
    long long kept = 0;
    a::Call call("thrust::copy_if", line, CUDAJUDGE_ALGO_SELECT_FLAGGED);
    call.items<T>(a::raw(first), a::raw(result), n);
    call.aux = flags.get();
    call.aux_type = CUDAJUDGE_T_U8;
    call.result_to<long long>(&kept, true);
    call.run();
    return result + kept;
}

template <class It, class Pred>
inline std::ptrdiff_t count_if(It first, It last, Pred pred, int line) {
    const long long n = last - first;
    a::Scratch<unsigned char> flags(n, line);
    if (!flag<::cudajudge::shown_as::thrust::count_if>("thrust::count_if", first, n, pred, flags, line)) return 0;
    long long found = 0;
    a::Call call("thrust::count_if", line, CUDAJUDGE_ALGO_REDUCE);
    call.op = CUDAJUDGE_OP_SUM;
    call.items<unsigned char>(flags.get(), nullptr, n);
    call.set_value<long long>(call.init, 0);
    call.result_to<long long>(&found, true);
    call.run();
    return static_cast<std::ptrdiff_t>(found);
}

}  // namespace thrust::cudajudge_detail

namespace thrust {

#define CUDAJUDGE_THRUST_SORTS(NAME)                                                                              \
    template <class It>                                                                                           \
    inline void NAME(const detail::device_policy&, It first, It last, CUDAJUDGE_CALL_SITE) {                       \
        cudajudge_detail::sort<It, void>("thrust::" #NAME, first, last, nullptr, std::less<void>{}, site.value);      \
    }                                                                                                             \
    template <class It, class Comp>                                                                               \
    inline void NAME(const detail::device_policy&, It first, It last, Comp comp, CUDAJUDGE_CALL_SITE) {            \
        cudajudge_detail::sort<It, void>("thrust::" #NAME, first, last, nullptr, comp, site.value);                   \
    }                                                                                                             \
    template <class T>                                                                                            \
    inline void NAME(device_ptr<T> first, device_ptr<T> last, CUDAJUDGE_CALL_SITE) {                               \
        cudajudge_detail::sort<device_ptr<T>, void>("thrust::" #NAME, first, last, nullptr, std::less<void>{},       \
                                                    site.value);                                                   \
    }                                                                                                             \
    template <class T, class Comp>                                                                                \
    inline void NAME(device_ptr<T> first, device_ptr<T> last, Comp comp, CUDAJUDGE_CALL_SITE) {                    \
        cudajudge_detail::sort<device_ptr<T>, void>("thrust::" #NAME, first, last, nullptr, comp, site.value);        \
    }                                                                                                             \
    template <class Keys, class Values>                                                                           \
    inline void NAME##_by_key(const detail::device_policy&, Keys first, Keys last, Values values,                 \
                              CUDAJUDGE_CALL_SITE) {                                                              \
        cudajudge_detail::check_iterator<Values>();                                                               \
        cudajudge_detail::sort("thrust::" #NAME "_by_key", first, last, cudajudge_detail::a::raw(values),           \
                               std::less<void>{}, site.value);                                                     \
    }                                                                                                             \
    template <class Keys, class Values, class Comp>                                                               \
    inline void NAME##_by_key(const detail::device_policy&, Keys first, Keys last, Values values, Comp comp,      \
                              CUDAJUDGE_CALL_SITE) {                                                              \
        cudajudge_detail::check_iterator<Values>();                                                               \
        cudajudge_detail::sort("thrust::" #NAME "_by_key", first, last, cudajudge_detail::a::raw(values), comp,     \
                               site.value);                                                                        \
    }                                                                                                             \
    template <class K, class V>                                                                                   \
    inline void NAME##_by_key(device_ptr<K> first, device_ptr<K> last, device_ptr<V> values, CUDAJUDGE_CALL_SITE) { \
        cudajudge_detail::sort("thrust::" #NAME "_by_key", first, last, values.get(), std::less<void>{}, site.value); \
    }                                                                                                             \
    template <class K, class V, class Comp>                                                                       \
    inline void NAME##_by_key(device_ptr<K> first, device_ptr<K> last, device_ptr<V> values, Comp comp,           \
                              CUDAJUDGE_CALL_SITE) {                                                              \
        cudajudge_detail::sort("thrust::" #NAME "_by_key", first, last, values.get(), comp, site.value);           \
    }
CUDAJUDGE_THRUST_SORTS(sort)
CUDAJUDGE_THRUST_SORTS(stable_sort)
#undef CUDAJUDGE_THRUST_SORTS

#define CUDAJUDGE_COMMA ,
// Each algorithm takes the device policy first; where its first iterator is a thrust::device_ptr it may
// be left out, as Thrust then runs it on the device. The other iterators may be of other types (a
// device_ptr<const float> input, a device_ptr<float> output), checked as the policy's overload checks them.
#define CUDAJUDGE_THRUST_POLICY_FREE(RETURN, NAME, TYPES, PARAMS, ARGS)                                           \
    template <class T TYPES>                                                                                      \
    inline RETURN NAME(device_ptr<T> first, device_ptr<T> last PARAMS, CUDAJUDGE_CALL_SITE) {                      \
        return NAME(device, first, last ARGS, site);                                                              \
    }

template <class It>
inline ::cudajudge::algorithms::value_of<It> reduce(const detail::device_policy&, It first, It last, CUDAJUDGE_CALL_SITE) {
    return cudajudge_detail::reduce(first, last, ::cudajudge::algorithms::value_of<It>{}, std::plus<void>{}, site.value);
}
template <class It, class Init>
inline Init reduce(const detail::device_policy&, It first, It last, Init init, CUDAJUDGE_CALL_SITE) {
    return cudajudge_detail::reduce(first, last, init, std::plus<void>{}, site.value);
}
template <class It, class Init, class Op>
inline Init reduce(const detail::device_policy&, It first, It last, Init init, Op op, CUDAJUDGE_CALL_SITE) {
    return cudajudge_detail::reduce(first, last, init, op, site.value);
}
CUDAJUDGE_THRUST_POLICY_FREE(std::remove_cv_t<T>, reduce, , , )
CUDAJUDGE_THRUST_POLICY_FREE(Init, reduce, CUDAJUDGE_COMMA class Init, CUDAJUDGE_COMMA Init init, CUDAJUDGE_COMMA init)
CUDAJUDGE_THRUST_POLICY_FREE(Init, reduce, CUDAJUDGE_COMMA class Init CUDAJUDGE_COMMA class Op, CUDAJUDGE_COMMA Init init CUDAJUDGE_COMMA Op op, CUDAJUDGE_COMMA init CUDAJUDGE_COMMA op)

template <class In, class Out>
inline Out inclusive_scan(const detail::device_policy&, In first, In last, Out result, CUDAJUDGE_CALL_SITE) {
    return cudajudge_detail::scan("thrust::inclusive_scan", false, first, last, result, 0, std::plus<void>{}, site.value);
}
template <class In, class Out, class Op>
inline Out inclusive_scan(const detail::device_policy&, In first, In last, Out result, Op op, CUDAJUDGE_CALL_SITE) {
    return cudajudge_detail::scan("thrust::inclusive_scan", false, first, last, result, 0, op, site.value);
}
template <class In, class Out>
inline Out exclusive_scan(const detail::device_policy&, In first, In last, Out result, CUDAJUDGE_CALL_SITE) {
    return cudajudge_detail::scan("thrust::exclusive_scan", true, first, last, result, 0, std::plus<void>{}, site.value);
}
template <class In, class Out, class Init>
inline Out exclusive_scan(const detail::device_policy&, In first, In last, Out result, Init init, CUDAJUDGE_CALL_SITE) {
    return cudajudge_detail::scan("thrust::exclusive_scan", true, first, last, result, init, std::plus<void>{}, site.value);
}
template <class In, class Out, class Init, class Op>
inline Out exclusive_scan(const detail::device_policy&, In first, In last, Out result, Init init, Op op,
                          CUDAJUDGE_CALL_SITE) {
    return cudajudge_detail::scan("thrust::exclusive_scan", true, first, last, result, init, op, site.value);
}
CUDAJUDGE_THRUST_POLICY_FREE(Out, inclusive_scan, CUDAJUDGE_COMMA class Out, CUDAJUDGE_COMMA Out result, CUDAJUDGE_COMMA result)
CUDAJUDGE_THRUST_POLICY_FREE(Out, inclusive_scan, CUDAJUDGE_COMMA class Out CUDAJUDGE_COMMA class Op, CUDAJUDGE_COMMA Out result CUDAJUDGE_COMMA Op op, CUDAJUDGE_COMMA result CUDAJUDGE_COMMA op)
CUDAJUDGE_THRUST_POLICY_FREE(Out, exclusive_scan, CUDAJUDGE_COMMA class Out, CUDAJUDGE_COMMA Out result, CUDAJUDGE_COMMA result)
CUDAJUDGE_THRUST_POLICY_FREE(Out, exclusive_scan, CUDAJUDGE_COMMA class Out CUDAJUDGE_COMMA class Init, CUDAJUDGE_COMMA Out result CUDAJUDGE_COMMA Init init, CUDAJUDGE_COMMA result CUDAJUDGE_COMMA init)
CUDAJUDGE_THRUST_POLICY_FREE(Out, exclusive_scan, CUDAJUDGE_COMMA class Out CUDAJUDGE_COMMA class Init CUDAJUDGE_COMMA class Op, CUDAJUDGE_COMMA Out result CUDAJUDGE_COMMA Init init CUDAJUDGE_COMMA Op op,
                             CUDAJUDGE_COMMA result CUDAJUDGE_COMMA init CUDAJUDGE_COMMA op)

template <class It>
inline It max_element(const detail::device_policy&, It first, It last, CUDAJUDGE_CALL_SITE) {
    return cudajudge_detail::extremum("thrust::max_element", first, last, CUDAJUDGE_OP_MAX, site.value);
}
template <class It>
inline It min_element(const detail::device_policy&, It first, It last, CUDAJUDGE_CALL_SITE) {
    return cudajudge_detail::extremum("thrust::min_element", first, last, CUDAJUDGE_OP_MIN, site.value);
}
CUDAJUDGE_THRUST_POLICY_FREE(device_ptr<T>, max_element, , , )
CUDAJUDGE_THRUST_POLICY_FREE(device_ptr<T>, min_element, , , )

template <class It, class V>
inline void fill(const detail::device_policy&, It first, It last, const V& value, CUDAJUDGE_CALL_SITE) {
    cudajudge_detail::fill("thrust::fill", CUDAJUDGE_ALGO_FILL, first, last, value, value, site.value);
}
template <class It>
inline void sequence(const detail::device_policy&, It first, It last, CUDAJUDGE_CALL_SITE) {
    using V = ::cudajudge::algorithms::value_of<It>;
    cudajudge_detail::fill("thrust::sequence", CUDAJUDGE_ALGO_SEQUENCE, first, last, V(0), V(1), site.value);
}
template <class It, class V>
inline void sequence(const detail::device_policy&, It first, It last, V init, CUDAJUDGE_CALL_SITE) {
    cudajudge_detail::fill("thrust::sequence", CUDAJUDGE_ALGO_SEQUENCE, first, last, init, V(1), site.value);
}
template <class It, class V>
inline void sequence(const detail::device_policy&, It first, It last, V init, V step, CUDAJUDGE_CALL_SITE) {
    cudajudge_detail::fill("thrust::sequence", CUDAJUDGE_ALGO_SEQUENCE, first, last, init, step, site.value);
}
template <class T, class V>
inline void fill(device_ptr<T> first, device_ptr<T> last, const V& value, CUDAJUDGE_CALL_SITE) {
    fill(device, first, last, value, site);
}
template <class It, class Size, class V>
inline It fill_n(const detail::device_policy&, It first, Size n, const V& value, CUDAJUDGE_CALL_SITE) {
    fill(device, first, first + n, value, site);
    return first + n;
}
template <class T, class Size, class V>
inline device_ptr<T> fill_n(device_ptr<T> first, Size n, const V& value, CUDAJUDGE_CALL_SITE) {
    return fill_n(device, first, n, value, site);
}
CUDAJUDGE_THRUST_POLICY_FREE(void, sequence, , , )
CUDAJUDGE_THRUST_POLICY_FREE(void, sequence, CUDAJUDGE_COMMA class V, CUDAJUDGE_COMMA V init, CUDAJUDGE_COMMA init)
CUDAJUDGE_THRUST_POLICY_FREE(void, sequence, CUDAJUDGE_COMMA class V, CUDAJUDGE_COMMA V init CUDAJUDGE_COMMA V step, CUDAJUDGE_COMMA init CUDAJUDGE_COMMA step)

template <class It, class V>
inline std::ptrdiff_t count(const detail::device_policy&, It first, It last, const V& value, CUDAJUDGE_CALL_SITE) {
    cudajudge_detail::check_iterator<It>();
    using T = ::cudajudge::algorithms::value_of<It>;
    long long found = 0;
    ::cudajudge::algorithms::Call call("thrust::count", site.value, CUDAJUDGE_ALGO_COUNT);
    call.items<T>(::cudajudge::algorithms::raw(first), nullptr, last - first);
    call.set_value<T>(call.init, value);
    call.result_to<long long>(&found, true);
    call.run();
    return static_cast<std::ptrdiff_t>(found);
}
template <class T, class V>
inline std::ptrdiff_t count(device_ptr<T> first, device_ptr<T> last, const V& value, CUDAJUDGE_CALL_SITE) {
    return count(device, first, last, value, site);
}

// In place: the first of each run of equal items, moved to the front; returns the new end.
template <class It>
inline It unique(const detail::device_policy&, It first, It last, CUDAJUDGE_CALL_SITE) {
    cudajudge_detail::check_iterator<It>();
    using T = ::cudajudge::algorithms::value_of<It>;
    long long kept = 0;
    ::cudajudge::algorithms::Call call("thrust::unique", site.value, CUDAJUDGE_ALGO_UNIQUE);
    call.items<T>(::cudajudge::algorithms::raw(first), ::cudajudge::algorithms::raw(first), last - first);
    call.result_to<long long>(&kept, true);
    call.run();
    return first + kept;
}
CUDAJUDGE_THRUST_POLICY_FREE(device_ptr<T>, unique, , , )

template <class In, class Out>
inline Out copy(const detail::device_policy&, In first, In last, Out result, CUDAJUDGE_CALL_SITE) {
    cudajudge_detail::check_iterator<In>();
    cudajudge_detail::check_iterator<Out>();
    using T = ::cudajudge::algorithms::value_of<In>;
    static_assert(std::is_same_v<T, ::cudajudge::algorithms::value_of<Out>>, "thrust::copy here copies between arrays of one type");
    ::cudajudge::algorithms::Call call("thrust::copy", site.value, CUDAJUDGE_ALGO_COPY);
    call.items<T>(::cudajudge::algorithms::raw(first), ::cudajudge::algorithms::raw(result), last - first);
    call.run();
    return result + (last - first);
}

namespace cudajudge_detail {
template <class It>
constexpr bool is_device_ptr = false;
template <class T>
constexpr bool is_device_ptr<device_ptr<T>> = true;

// Thrust's copy between a device_ptr range and host memory (a raw pointer, which without a policy is host
// memory to Thrust, or another iterator): one cudaMemcpy with cudaMemcpyDefault where both sides are
// contiguous, as Thrust's is (on a GPU it also reaches device memory a raw pointer holds), else through
// a host buffer.
template <class T, class In, class Out>
inline Out host_device_copy(In first, In last, Out result, int line) {
    namespace a = ::cudajudge::algorithms;
    const auto n = static_cast<std::size_t>(std::distance(first, last));
    if constexpr ((std::is_pointer_v<In> || is_device_ptr<In>) && (std::is_pointer_v<Out> || is_device_ptr<Out>)) {
        if (n > 0) a::device_copy(a::raw(result), a::raw(first), n * sizeof(T), cudaMemcpyDefault, line);
        return result + n;
    } else if constexpr (is_device_ptr<In>) {   // into a host iterator
        std::vector<T> host(n);
        if (n > 0) a::device_copy(host.data(), first.get(), n * sizeof(T), cudaMemcpyDeviceToHost, line);
        return std::copy(host.begin(), host.end(), result);
    } else {                                    // from a host iterator
        std::vector<T> host(first, last);
        if (n > 0) a::device_copy(a::raw(result), host.data(), n * sizeof(T), cudaMemcpyHostToDevice, line);
        return result + n;
    }
}
}  // namespace cudajudge_detail

// Without a policy: device_ptr to device_ptr is a device-wide copy; a raw pointer or another iterator on
// either side is host memory.
template <class T, class Out>
inline Out copy(device_ptr<T> first, device_ptr<T> last, Out result, CUDAJUDGE_CALL_SITE) {
    if constexpr (cudajudge_detail::is_device_ptr<Out>)
        return copy(device, first, last, result, site);
    else
        return cudajudge_detail::host_device_copy<std::remove_cv_t<T>>(first, last, result, site.value);
}
template <class In, class U, class = std::enable_if_t<!cudajudge_detail::is_device_ptr<In>>>
inline device_ptr<U> copy(In first, In last, device_ptr<U> result, CUDAJUDGE_CALL_SITE) {
    return cudajudge_detail::host_device_copy<std::remove_cv_t<U>>(first, last, result, site.value);
}
template <class In, class Size, class Out>
inline Out copy_n(const detail::device_policy&, In first, Size n, Out result, CUDAJUDGE_CALL_SITE) {
    return copy(device, first, first + n, result, site);
}
template <class In, class Size, class Out>
inline Out copy_n(In first, Size n, Out result, CUDAJUDGE_CALL_SITE) {
    return copy(first, first + n, result, site);
}

// Algorithms that run a functor of yours (cudajudge/functor_calls.h): a type declared at file scope
// whose operator() device code can call.
template <class In, class Out, class Op>
inline Out transform(const detail::device_policy&, In first, In last, Out result, Op op, CUDAJUDGE_CALL_SITE) {
    return cudajudge_detail::transform(first, last, result, op, site.value);
}
template <class In1, class In2, class Out, class Op>
inline Out transform(const detail::device_policy&, In1 first1, In1 last1, In2 first2, Out result, Op op,
                     CUDAJUDGE_CALL_SITE) {
    return cudajudge_detail::transform(first1, last1, first2, result, op, site.value);
}
template <class T, class Out, class Op>
inline Out transform(device_ptr<T> first, device_ptr<T> last, Out result, Op op, CUDAJUDGE_CALL_SITE) {
    return cudajudge_detail::transform(first, last, result, op, site.value);
}
template <class T, class In2, class Out, class Op>
inline Out transform(device_ptr<T> first1, device_ptr<T> last1, In2 first2, Out result, Op op, CUDAJUDGE_CALL_SITE) {
    return cudajudge_detail::transform(first1, last1, first2, result, op, site.value);
}
template <class It, class Unary, class Init, class Binary>
inline Init transform_reduce(const detail::device_policy&, It first, It last, Unary unary, Init init, Binary binary,
                             CUDAJUDGE_CALL_SITE) {
    return cudajudge_detail::transform_reduce(first, last, unary, init, binary, site.value);
}
template <class T, class Unary, class Init, class Binary>
inline Init transform_reduce(device_ptr<T> first, device_ptr<T> last, Unary unary, Init init, Binary binary,
                             CUDAJUDGE_CALL_SITE) {
    return cudajudge_detail::transform_reduce(first, last, unary, init, binary, site.value);
}
template <class It1, class It2, class Init>
inline Init inner_product(const detail::device_policy&, It1 first1, It1 last1, It2 first2, Init init, CUDAJUDGE_CALL_SITE) {
    return cudajudge_detail::inner_product(first1, last1, first2, init, std::plus<void>{}, std::multiplies<void>{},
                                           site.value);
}
template <class It1, class It2, class Init, class Reduce, class Combine>
inline Init inner_product(const detail::device_policy&, It1 first1, It1 last1, It2 first2, Init init, Reduce reduce,
                          Combine combine, CUDAJUDGE_CALL_SITE) {
    return cudajudge_detail::inner_product(first1, last1, first2, init, reduce, combine, site.value);
}
template <class T, class It2, class Init>
inline Init inner_product(device_ptr<T> first1, device_ptr<T> last1, It2 first2, Init init, CUDAJUDGE_CALL_SITE) {
    return inner_product(device, first1, last1, first2, init, site);
}
template <class T, class It2, class Init, class Reduce, class Combine>
inline Init inner_product(device_ptr<T> first1, device_ptr<T> last1, It2 first2, Init init, Reduce reduce,
                          Combine combine, CUDAJUDGE_CALL_SITE) {
    return inner_product(device, first1, last1, first2, init, reduce, combine, site);
}
template <class In, class Out, class Pred>
inline Out copy_if(const detail::device_policy&, In first, In last, Out result, Pred pred, CUDAJUDGE_CALL_SITE) {
    return cudajudge_detail::copy_if(first, last, first, result, pred, site.value);
}
template <class In, class Stencil, class Out, class Pred>
inline Out copy_if(const detail::device_policy&, In first, In last, Stencil stencil, Out result, Pred pred,
                   CUDAJUDGE_CALL_SITE) {
    return cudajudge_detail::copy_if(first, last, stencil, result, pred, site.value);
}
template <class T, class Out, class Pred>
inline Out copy_if(device_ptr<T> first, device_ptr<T> last, Out result, Pred pred, CUDAJUDGE_CALL_SITE) {
    return cudajudge_detail::copy_if(first, last, first, result, pred, site.value);
}
template <class T, class Stencil, class Out, class Pred>
inline Out copy_if(device_ptr<T> first, device_ptr<T> last, Stencil stencil, Out result, Pred pred, CUDAJUDGE_CALL_SITE) {
    return cudajudge_detail::copy_if(first, last, stencil, result, pred, site.value);
}
template <class It, class Pred>
inline std::ptrdiff_t count_if(const detail::device_policy&, It first, It last, Pred pred, CUDAJUDGE_CALL_SITE) {
    return cudajudge_detail::count_if(first, last, pred, site.value);
}
template <class T, class Pred>
inline std::ptrdiff_t count_if(device_ptr<T> first, device_ptr<T> last, Pred pred, CUDAJUDGE_CALL_SITE) {
    return cudajudge_detail::count_if(first, last, pred, site.value);
}

#undef CUDAJUDGE_THRUST_POLICY_FREE
#undef CUDAJUDGE_COMMA

}  // namespace thrust
