// Bounded JSON parsing: the hostile shapes of issue 5 each get a clear error with the
// field path, and ordinary documents parse exactly as nlohmann's own parser reads them.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "api.hpp"
#include "common/error.hpp"
#include "io/json_parse.hpp"

using namespace envelope;

namespace {

std::pair<std::string, std::string> parse_error_of(const std::string& text,
                                                   const JsonLimits& limits = kScenarioLimits) {
    try {
        parse_json_text(text, limits);
    } catch (const InputError& e) {
        return {e.path(), e.what()};
    }
    FAIL("expected an InputError for " << text.substr(0, 60));
    return {};
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string nested_arrays(int depth) {
    return "{\"x\":" + std::string(static_cast<std::size_t>(depth), '[') +
           std::string(static_cast<std::size_t>(depth), ']') + ",\"y\":1}";
}

}  // namespace

TEST_CASE("ordinary documents parse as nlohmann's own parser reads them, key order kept") {
    const std::string text =
        R"({"b": 1, "a": [1, -2, 3.5, "s", true, null, {"k": {}}], "c": {"z": 18446744073709551615}})";
    const Json ours = parse_json_text(text);
    CHECK(ours == Json::parse(text));
    CHECK(ours.begin().key() == "b");  // ordered as written
    CHECK(ours["c"]["z"].is_number_unsigned());
}

TEST_CASE("nesting deeper than the limit is refused with the path where it happens") {
    // Before the fix: 100,000 levels crashed the CLI (SIGSEGV in the recursive copy of the
    // tree) and made wasm throw a RangeError.
    const auto [path, message] = parse_error_of(nested_arrays(100000));
    CHECK(contains(message, "nests deeper than 64"));
    CHECK(path.rfind("x[0][0]", 0) == 0);
    CHECK(parse_json_text(nested_arrays(60)).is_object());  // 61 levels with the root: allowed
}

TEST_CASE("too many keys in one object, or too large a document, is refused") {
    std::string wide = "{";
    for (int i = 0; i < 1001; ++i) wide += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":1";
    wide += "}";
    const auto [path, message] = parse_error_of("{\"model\": " + wide + "}");
    CHECK(path == "model");
    CHECK(contains(message, "more than 1000 keys"));

    const auto big = parse_error_of(std::string(kScenarioLimits.max_bytes + 1, ' '));
    CHECK(big.first.empty());
    CHECK(contains(big.second, "larger than the limit of 1048576 bytes"));
}

TEST_CASE("text after a NUL byte is not ignored") {
    const std::string text = std::string("{\"a\": 1}") + '\0' + "garbage";
    const auto [path, message] = parse_error_of(text);
    CHECK(path.empty());
    CHECK(contains(message, "NUL byte at offset 8"));
}

TEST_CASE("a duplicate key is an error naming the field, not 'the last one wins'") {
    const auto [path, message] = parse_error_of(R"({"workload": {"batch": 1, "batch": 64}})");
    CHECK(path == "workload.batch");
    CHECK(contains(message, "given twice"));
    // The same key in different objects is fine.
    CHECK(parse_json_text(R"({"a": {"k": 1}, "b": {"k": 2}, "c": [{"k": 1}, {"k": 2}]})").size() == 3);
}

TEST_CASE("a number beyond double range becomes ±infinity at its own path") {
    const Json doc = parse_json_text(R"({"note": "1e400 in a string", "w": {"batch": -1e400}, "v": [1, 1E+999]})");
    CHECK(doc["note"] == "1e400 in a string");  // the literal inside a string is untouched
    CHECK(std::isinf(doc["w"]["batch"].get<double>()));
    CHECK(doc["w"]["batch"].get<double>() < 0);
    CHECK(std::isinf(doc["v"][1].get<double>()));
    CHECK(doc["v"][0] == 1);
}

TEST_CASE("syntax errors say where, without the library's internal prefix") {
    const auto [path, message] = parse_error_of("{\"model\": }");
    CHECK(path.empty());
    CHECK(contains(message, "not valid JSON: parse error at line 1, column 11"));
    CHECK_FALSE(contains(message, "json.exception"));
    CHECK(contains(parse_error_of("{\"a\": \"\xff\"}").second, "not valid JSON"));  // bad UTF-8
}

TEST_CASE("each hostile document comes back from the API as an error value naming its field") {
    struct Case {
        std::string text;
        std::string path;
        std::string message;
    };
    const Case cases[] = {
        {nested_arrays(100000), "x[0]", "nests deeper"},
        {R"({"model": 1e400})", "model", "must be a preset name or an object"},
        {R"({"model": "llama-2-7b", "system": {"chip": "h100-sxm", "count": 1},
             "workload": {"batch": 1e400, "input_tokens": 8, "output_tokens": 8, "precision": "bf16"}})",
         "workload.batch", "must be an integer in [1, 10000000], got a number beyond +1.8e308"},
    };
    for (const Case& c : cases) {
        const Json out = Json::parse(evaluate_json(c.text));
        CHECK(out["ok"] == false);
        CHECK(out["error"]["path"].get<std::string>().rfind(c.path, 0) == 0);
        CHECK(contains(out["error"]["message"].get<std::string>(), c.message));
    }
}
