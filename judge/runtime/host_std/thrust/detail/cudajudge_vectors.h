// thrust::device_vector and thrust::host_vector in host code. A device_vector's memory comes from the
// user's own cudaMalloc, on the line that declared it (counted, bounds-checked and freed as theirs);
// its iterators are thrust::device_ptr, so every algorithm here takes them; its elements are read and
// written from the host by copies. A range of raw pointers or device_ptrs is copied by one cudaMemcpy
// with cudaMemcpyDefault, as Thrust's copy of a contiguous range is, which on a GPU (unified addressing)
// works for device and host memory alike; another range (a std::vector's, a list's) is read on the host.
#pragma once
#include "cudajudge_thrust.h"

#include <initializer_list>
#include <new>
#include <utility>
#include <vector>

namespace thrust {

template <class T>
class device_vector {
    static_assert(std::is_trivially_copyable_v<T>, "thrust::device_vector here holds plain values (numbers, "
                                                   "structs of numbers): they are copied as bytes");

public:
    using value_type = T;
    using size_type = std::size_t;
    using difference_type = std::ptrdiff_t;
    using iterator = device_ptr<T>;
    using const_iterator = device_ptr<const T>;
    using pointer = device_ptr<T>;
    using const_pointer = device_ptr<const T>;
    using reference = device_reference<T>;
    using const_reference = device_reference<const T>;

    device_vector(CUDAJUDGE_CALL_SITE) : line_(site.value) {}
    explicit device_vector(size_type n, CUDAJUDGE_CALL_SITE) : line_(site.value) { assign_zeros(n); }
    device_vector(size_type n, const T& value, CUDAJUDGE_CALL_SITE) : line_(site.value) { assign_value(n, value); }
    template <class It, class = typename std::iterator_traits<It>::iterator_category>
    device_vector(It first, It last, CUDAJUDGE_CALL_SITE) : line_(site.value) { assign_range(first, last); }
    device_vector(const std::vector<T>& host, CUDAJUDGE_CALL_SITE) : line_(site.value) {
        assign_range(host.begin(), host.end());
    }
    device_vector(std::initializer_list<T> values, CUDAJUDGE_CALL_SITE) : line_(site.value) {
        assign_range(values.begin(), values.end());
    }
    device_vector(const device_vector& other) : line_(other.line_) { assign_range(other.begin(), other.end()); }
    device_vector(device_vector&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)), line_(other.line_) {}
    ~device_vector() { release(); }

    device_vector& operator=(const device_vector& other) {
        if (this != &other) assign_range(other.begin(), other.end());
        return *this;
    }
    device_vector& operator=(device_vector&& other) noexcept {
        swap(other);
        return *this;
    }
    device_vector& operator=(const std::vector<T>& host) {
        assign_range(host.begin(), host.end());
        return *this;
    }

    size_type size() const { return size_; }
    bool empty() const { return size_ == 0; }
    iterator begin() { return iterator(data_); }
    iterator end() { return iterator(data_ + size_); }
    const_iterator begin() const { return const_iterator(data_); }
    const_iterator end() const { return const_iterator(data_ + size_); }
    const_iterator cbegin() const { return begin(); }
    const_iterator cend() const { return end(); }
    pointer data() { return pointer(data_); }
    const_pointer data() const { return const_pointer(data_); }
    reference operator[](size_type i) { return reference(data_ + i); }
    const_reference operator[](size_type i) const { return const_reference(data_ + i); }
    reference front() { return (*this)[0]; }
    reference back() { return (*this)[size_ - 1]; }

    // Elements past the old size are value-initialized (zero), as Thrust's are; the first ones are kept.
    void resize(size_type n) { resize_with(n, [&](T* tail, size_type count) { zero(tail, count); }); }
    void resize(size_type n, const T& value) { resize_with(n, [&](T* tail, size_type count) { fill(tail, count, value); }); }
    void clear() { release(); }
    void swap(device_vector& other) noexcept {
        std::swap(data_, other.data_);
        std::swap(size_, other.size_);
        std::swap(line_, other.line_);
    }

private:
    T* allocate(size_type n) {   // as Thrust, a failed allocation throws (std::bad_alloc)
        void* memory = nullptr;
        if (n > 0 && ::cudajudge::algorithms::device_malloc(&memory, n * sizeof(T), line_) != cudaSuccess)
            throw std::bad_alloc();
        return static_cast<T*>(memory);
    }
    void release() {
        if (data_ != nullptr) ::cudajudge::algorithms::device_free(data_, line_);
        data_ = nullptr;
        size_ = 0;
    }
    void adopt(T* memory, size_type n) {
        release();
        data_ = memory;
        size_ = n;
    }
    void zero(T* first, size_type count) {
        if (count > 0) ::cudajudge::algorithms::device_zero(first, count * sizeof(T), line_);
    }
    void fill(T* first, size_type count, const T& value) {
        std::vector<T> host(count, value);
        if (count > 0) ::cudajudge::algorithms::device_copy(first, host.data(), count * sizeof(T), cudaMemcpyHostToDevice, line_);
    }
    void assign_zeros(size_type n) {
        T* memory = allocate(n);
        zero(memory, n);
        adopt(memory, n);
    }
    void assign_value(size_type n, const T& value) {
        T* memory = allocate(n);
        fill(memory, n, value);
        adopt(memory, n);
    }
    template <class It>
    void assign_range(It first, It last) {
        const auto n = static_cast<size_type>(std::distance(first, last));
        T* memory = allocate(n);
        cudajudge_detail::host_device_copy<T>(first, last, memory, line_);
        adopt(memory, n);
    }
    template <class Tail>
    void resize_with(size_type n, Tail tail) {
        T* memory = allocate(n);
        const size_type kept = n < size_ ? n : size_;
        if (kept > 0) ::cudajudge::algorithms::device_copy(memory, data_, kept * sizeof(T), cudaMemcpyDeviceToDevice, line_);
        if (n > kept) tail(memory + kept, n - kept);
        adopt(memory, n);
    }

    T* data_ = nullptr;
    size_type size_ = 0;
    int line_ = 0;
};

// Host memory, a std::vector; built from a device_vector (or assigned one) by a copy from the device.
template <class T>
class host_vector : public std::vector<T> {
public:
    using std::vector<T>::vector;
    host_vector() = default;
    host_vector(const std::vector<T>& other) : std::vector<T>(other) {}
    host_vector(const device_vector<T>& device) : std::vector<T>(device.size()) {
        if (!device.empty())
            ::cudajudge::algorithms::device_copy(this->data(), ::cudajudge::algorithms::raw(device.begin()),
                                                 device.size() * sizeof(T), cudaMemcpyDeviceToHost, 0);
    }
    host_vector& operator=(const device_vector<T>& device) { return *this = host_vector(device); }
};

}  // namespace thrust
