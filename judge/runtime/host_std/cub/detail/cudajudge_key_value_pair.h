// cub::KeyValuePair and cub::NullType, for the block primitives of the CPU backend and the
// device-wide ArgMin/ArgMax of both backends.
#pragma once

namespace cub {

struct NullType {};

template <class Key, class Value>
struct KeyValuePair {
    using key_type = Key;
    using value_type = Value;
    Key key;
    Value value;
    KeyValuePair() = default;
    KeyValuePair(const Key& k, const Value& v) : key(k), value(v) {}
};

}  // namespace cub
