// envelope — the command-line face of the core.
//
//   envelope eval SCENARIO.json     evaluate (use - for stdin); result JSON on stdout
//   envelope presets [--json]       list the built-in presets
//   envelope --version | --help
//
// Exit codes: 0 success; 2 bad input — an unreadable file, malformed JSON or a bad field
// (a message naming the field on stderr, nothing on stdout); 1 internal error.
// This is the only part of the project that touches files; core itself is I/O-free.
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>

#include "api.hpp"
#include "common/error.hpp"
#include "io/scenario_json.hpp"
#include "presets/registry.hpp"
#include "version.hpp"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitBadInput = 2;

const char* kUsage =
    "usage: envelope eval SCENARIO.json   evaluate a scenario (- reads stdin)\n"
    "       envelope presets [--json]     list built-in presets (--json: full documents)\n"
    "       envelope --version\n";

bool read_input(const std::string& name, std::string& out) {
    if (name == "-") {
        out.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
        return true;
    }
    std::ifstream file(name, std::ios::binary);
    if (!file) return false;
    std::ostringstream text;
    text << file.rdbuf();
    out = text.str();
    return true;
}

int eval(const std::string& name) {
    std::string text;
    if (!read_input(name, text)) {
        std::cerr << "envelope: cannot read " << name << "\n";
        return kExitBadInput;
    }
    try {
        const envelope::Json result = envelope::evaluate_document(envelope::parse_json_text(text));
        std::cout << envelope::to_text(result, 2) << "\n";
        return kExitOk;
    } catch (const envelope::InputError& e) {
        std::cerr << "envelope: " << name << ": "
                  << (e.path().empty() ? std::string() : e.path() + ": ") << e.what() << "\n";
        return kExitBadInput;
    } catch (const std::exception& e) {
        std::cerr << "envelope: internal error: " << e.what() << "\n";
        return kExitFailure;
    }
}

int presets(bool as_json) {
    if (as_json) {
        std::cout << envelope::presets_json() << "\n";
        return kExitOk;
    }
    using envelope::PresetKind;
    for (PresetKind kind : {PresetKind::model, PresetKind::chip, PresetKind::system, PresetKind::scenario}) {
        std::cout << envelope::preset_folder(kind) << ":\n";
        for (const auto& key : envelope::preset_keys(kind)) {
            const envelope::Json* doc = envelope::find_preset(kind, key);
            std::cout << "  " << key;
            if (doc->contains("name") && (*doc)["name"].is_string()) {
                std::cout << "  (" << (*doc)["name"].get<std::string>() << ")";
            }
            std::cout << "\n";
        }
    }
    return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string cmd = argc > 1 ? argv[1] : "";
    if (cmd == "eval" && argc == 3) return eval(argv[2]);
    if (cmd == "presets" && argc == 2) return presets(false);
    if (cmd == "presets" && argc == 3 && std::string(argv[2]) == "--json") return presets(true);
    if (cmd == "--version" && argc == 2) {
        std::cout << "envelope " << envelope::kVersion << "\n";
        return kExitOk;
    }
    if (cmd == "--help" || cmd == "-h") {
        std::cout << kUsage;
        return kExitOk;
    }
    std::cerr << kUsage;
    return kExitBadInput;
}
