#include "cli/read_input.hpp"

#include <fstream>
#include <iostream>

namespace envelope::cli {

bool read_input(const std::string& name, std::size_t max_bytes, std::string& out) {
    std::ifstream file;
    std::istream* in = &std::cin;
    if (name != "-") {
        file.open(name, std::ios::binary);
        if (!file) return false;
        in = &file;
    }
    out.resize(max_bytes + 1);
    in->read(out.data(), static_cast<std::streamsize>(out.size()));
    out.resize(static_cast<std::size_t>(in->gcount()));
    return !in->bad();
}

}  // namespace envelope::cli
