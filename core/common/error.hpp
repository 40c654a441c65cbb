#pragma once
// Errors that cross the core boundary.
//
// Inside core, bad input is reported by throwing InputError with the JSON path of
// the offending field ("workload.parallelism.tp"). The CLI turns it into a message on
// stderr and exit code 2; the wasm facade turns it into {ok:false, error:{path, message}}.
#include <stdexcept>
#include <string>

namespace envelope {

class InputError : public std::runtime_error {
public:
    InputError(std::string path, const std::string& message)
        : std::runtime_error(message), path_(std::move(path)) {}

    // Dotted path of the offending field, e.g. "model.kv_heads" or "system.network[0].size".
    // Empty when the problem is with the document as a whole (e.g. malformed JSON).
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

}  // namespace envelope
