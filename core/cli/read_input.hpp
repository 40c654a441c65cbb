#pragma once
// The CLI's one way of reading a file argument ("-": stdin).
#include <cstddef>
#include <string>

namespace envelope::cli {

// Reads at most max_bytes + 1 bytes, so that an endless input (/dev/zero, a pipe that never
// closes its data) is refused by the parser's size limit instead of filling memory. False
// when the file cannot be opened or read.
bool read_input(const std::string& name, std::size_t max_bytes, std::string& out);

}  // namespace envelope::cli
