// Text-to-enum conversions from one table: each accepted name beside its value, so that
// the parse, the list of names an error message gives and the name written back cannot
// disagree (lesson files, zerolab-plan's options).
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace zerolab {

template <typename E> struct NamedValue {
    std::string_view name;
    E value;
};

template <typename E, std::size_t N> using NameTable = std::array<NamedValue<E>, N>;

// The value named `name` exactly, or nullopt.
template <typename E, std::size_t N>
constexpr std::optional<E> valueNamed(const NameTable<E, N>& table, std::string_view name) {
    for (const NamedValue<E>& e : table)
        if (e.name == name)
            return e.value;
    return std::nullopt;
}

// The name `value` goes by in the table, or nullopt.
template <typename E, std::size_t N>
constexpr std::optional<std::string_view> nameOf(const NameTable<E, N>& table, E value) {
    for (const NamedValue<E>& e : table)
        if (e.value == value)
            return e.name;
    return std::nullopt;
}

// The table's names for a message, each between `quote`s: "'a', 'b' or 'c'".
template <typename E, std::size_t N>
std::string nameList(const NameTable<E, N>& table, std::string_view quote = "'") {
    std::string out;
    for (std::size_t i = 0; i < N; ++i) {
        if (i > 0)
            out += i + 1 == N ? " or " : ", ";
        out.append(quote).append(table[i].name).append(quote);
    }
    return out;
}

} // namespace zerolab
