#pragma once
// One table of spellings per enum: {value, name} pairs, the only place a value and its JSON
// name are paired. The readers (JsonReader::choice, read_spelling) look a name up in it and
// the writers (spelling_of, the to_string overloads) a value, so nothing is matched to an
// enum by its position in a second list. A value may have more than one entry (an alias):
// it is written with the first.
#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <string>
#include <vector>

namespace envelope {

template <class E>
struct Spelling {
    E value;
    const char* name;
};

// The name of `value` in `table` ("" for a value the table lacks).
template <class E, std::size_t N>
constexpr const char* spelling_of(const Spelling<E> (&table)[N], E value) {
    for (const Spelling<E>& s : table) {
        if (s.value == value) return s.name;
    }
    return "";
}

// The entries of `table` a field accepts: all of them in the table's order, or the first entry
// of each value in `only` (a field that takes a few of an enum's values), in that order.
template <class E, std::size_t N>
std::vector<Spelling<E>> accepted_spellings(const Spelling<E> (&table)[N], std::initializer_list<E> only = {}) {
    if (only.size() == 0) return std::vector<Spelling<E>>(std::begin(table), std::end(table));
    std::vector<Spelling<E>> out;
    for (E v : only) {
        for (const Spelling<E>& s : table) {
            if (s.value == v) {
                out.push_back(s);
                break;
            }
        }
    }
    return out;
}

template <class E>
std::vector<std::string> spelling_names(const std::vector<Spelling<E>>& spellings) {
    std::vector<std::string> names;
    names.reserve(spellings.size());
    for (const Spelling<E>& s : spellings) names.emplace_back(s.name);
    return names;
}

}  // namespace envelope
