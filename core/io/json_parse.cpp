#include "io/json_parse.hpp"

#include <limits>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/error.hpp"
#include "common/format.hpp"

namespace envelope {

namespace {

// nlohmann's exception ids: parse_error.101 (syntax) and out_of_range.406 (a number
// literal beyond the range of a double).
constexpr int kNumberOverflow = 406;

// A number literal too large for a double, found on an earlier pass.
struct Overflow {
    std::string path;
    bool negative = false;
};

// Builds the tree from nlohmann's SAX events (the same events its own parser uses, whose
// parse loop keeps its own stack, so nesting never recurses here) and stops at the first
// broken limit. Containers are filled in place: only the innermost open one grows, so
// the pointers kept to its ancestors stay valid.
class TreeBuilder {
public:
    TreeBuilder(const JsonLimits& limits, const std::vector<Overflow>& overflows)
        : limits_(limits), overflows_(overflows) {}

    Json& root() { return root_; }
    // What stopped the parse, when the SAX callbacks returned false.
    bool failed() const { return failed_; }
    const std::string& error_path() const { return error_path_; }
    const std::string& error_message() const { return error_message_; }
    // Set when the parse stopped at a number literal beyond double range.
    bool overflowed() const { return overflowed_; }
    const Overflow& overflow() const { return overflow_; }
    const std::string& overflow_token() const { return overflow_token_; }
    std::size_t overflow_end() const { return overflow_end_; }  // the literal ends at or before

    // ---- nlohmann SAX interface ----
    bool null() { return put(Json(nullptr)) != nullptr; }
    bool boolean(bool v) { return put(Json(v)) != nullptr; }
    bool number_integer(Json::number_integer_t v) { return put(Json(v)) != nullptr; }
    bool number_unsigned(Json::number_unsigned_t v) { return put(Json(v)) != nullptr; }
    bool number_float(Json::number_float_t v, const std::string& /*literal*/) {
        if (!overflows_.empty()) {
            const std::string here = current_path();
            for (const Overflow& o : overflows_) {
                if (o.path == here) v = o.negative ? -std::numeric_limits<double>::infinity()
                                                   : std::numeric_limits<double>::infinity();
            }
        }
        return put(Json(v)) != nullptr;
    }
    bool string(std::string& v) { return put(Json(std::move(v))) != nullptr; }
    bool binary(Json::binary_t& /*v*/) { return fail(current_path(), "binary values are not JSON"); }

    bool start_object(std::size_t /*elements*/) { return open(Json::object()); }
    bool end_object() { return close(); }
    bool start_array(std::size_t /*elements*/) { return open(Json::array()); }
    bool end_array() { return close(); }

    bool key(std::string& k) {
        Frame& f = frames_.back();
        if (!f.keys.insert(k).second) {
            f.key = std::move(k);
            return fail(current_path(), "is given twice (duplicate key in one object)");
        }
        if (f.keys.size() > limits_.max_keys_per_object) {
            return fail(container_path(), "has more than " + format_number(static_cast<double>(limits_.max_keys_per_object)) +
                            " keys");
        }
        f.key = std::move(k);
        return true;
    }

    bool parse_error(std::size_t position, const std::string& last_token,
                     const nlohmann::detail::exception& ex) {
        if (ex.id == kNumberOverflow) {
            overflowed_ = true;
            overflow_ = Overflow{current_path(), !last_token.empty() && last_token[0] == '-'};
            overflow_token_ = last_token;
            overflow_end_ = position;
            return false;
        }
        // "[json.exception.parse_error.101] parse error at line 1, column 9: ..." → from "parse error".
        std::string what = ex.what();
        const auto bracket = what.find("] ");
        if (bracket != std::string::npos) what = what.substr(bracket + 2);
        return fail("", "not valid JSON: " + what);
    }

private:
    struct Frame {
        Json* container = nullptr;
        std::string key;                       // objects: the key of the value being read
        std::unordered_set<std::string> keys;  // objects: keys seen so far
    };

    // Where the next value goes; nullptr (and a recorded error) when a limit is broken.
    Json* put(Json&& v) {
        if (frames_.empty()) {
            root_ = std::move(v);
            return &root_;
        }
        Json& parent = *frames_.back().container;
        if (parent.is_array()) {
            auto& items = parent.get_ref<Json::array_t&>();
            items.push_back(std::move(v));
            return &items.back();
        }
        // Appended directly: the key is known to be new, and ordered_map's own insert
        // would search every earlier key again (quadratic in the object's size).
        auto& members = static_cast<std::vector<std::pair<const std::string, Json>>&>(
            parent.get_ref<Json::object_t&>());
        members.emplace_back(frames_.back().key, std::move(v));
        return &members.back().second;
    }

    bool open(Json&& empty) {
        if (static_cast<int>(frames_.size()) >= limits_.max_depth) {
            return fail(current_path(), "nests deeper than " + std::to_string(limits_.max_depth) +
                                            " levels of objects and arrays");
        }
        Json* container = put(std::move(empty));
        frames_.push_back(Frame{container, {}, {}});
        return true;
    }

    bool close() {
        frames_.pop_back();
        return true;
    }

    bool fail(std::string path, std::string message) {
        failed_ = true;
        error_path_ = std::move(path);
        error_message_ = std::move(message);
        return false;
    }

    // The path through the first `levels` open containers. Inside an array the value read
    // is the next element, except where a deeper container is open: that one is its last.
    std::string path_through(std::size_t levels, bool innermost_open) const {
        std::string path;
        for (std::size_t i = 0; i < levels; ++i) {
            const Frame& f = frames_[i];
            if (f.container->is_array()) {
                const bool open_child = i + 1 < levels || innermost_open;
                path += "[" + std::to_string(f.container->size() - (open_child ? 1 : 0)) + "]";
            } else {
                path += (path.empty() ? "" : ".") + f.key;
            }
        }
        return path;
    }

    // Path of the value being read, e.g. "system.network[0].size".
    std::string current_path() const { return path_through(frames_.size(), false); }
    // Path of the innermost open container itself.
    std::string container_path() const { return path_through(frames_.size() - 1, true); }

    const JsonLimits& limits_;
    const std::vector<Overflow>& overflows_;
    Json root_;
    std::vector<Frame> frames_;
    bool failed_ = false;
    std::string error_path_;
    std::string error_message_;
    bool overflowed_ = false;
    Overflow overflow_;
    std::string overflow_token_;
    std::size_t overflow_end_ = 0;
};

// At most this many out-of-range literals are located (one re-parse each) before the
// document is refused as a whole.
constexpr int kMaxOverflows = 8;

}  // namespace

Json parse_json_text(std::string_view text, const JsonLimits& limits) {
    if (text.size() > limits.max_bytes) {
        throw InputError("", "the document is larger than the limit of " +
                                 format_number(static_cast<double>(limits.max_bytes), 15) + " bytes");
    }
    // nlohmann's lexer takes a NUL for the end of the input, so text after one would be
    // ignored silently; JSON text cannot contain a raw NUL anywhere.
    if (const auto nul = text.find('\0'); nul != std::string_view::npos) {
        throw InputError("", "not valid JSON: a NUL byte at offset " + std::to_string(nul));
    }

    std::string patched;  // the text with out-of-range literals replaced, once there is one
    std::string_view input = text;
    std::vector<Overflow> overflows;
    for (;;) {
        TreeBuilder builder(limits, overflows);
        if (Json::sax_parse(input.begin(), input.end(), &builder)) return std::move(builder.root());
        if (builder.failed()) throw InputError(builder.error_path(), builder.error_message());
        if (!builder.overflowed()) throw InputError("", "not valid JSON");
        // A number beyond double range: note its path, blank the literal out and parse
        // again; the builder then stores ±infinity there for the schema to reject with the
        // field's range.
        const std::string& token = builder.overflow_token();
        if (static_cast<int>(overflows.size()) >= kMaxOverflows || token.size() < 5) {
            throw InputError(builder.overflow().path,
                             "must be a finite number, got " + token + " (beyond ±1.8e308)");
        }
        if (patched.empty()) patched.assign(text);
        const auto at = patched.rfind(token, builder.overflow_end());
        if (at == std::string::npos) {
            throw InputError(builder.overflow().path, "must be a finite number, got " + token);
        }
        // Any literal beyond double range has at least 5 characters ("9e308"): room for "0.0",
        // a float literal, which reaches number_float below.
        patched.replace(at, token.size(), std::string(token.size() - 3, ' ') + "0.0");
        overflows.push_back(builder.overflow());
        input = patched;
    }
}

}  // namespace envelope
