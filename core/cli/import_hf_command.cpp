// envelope import-hf CONFIG.json [--name NAME]
//
// Prints the model document (the shape of presets/models/*.json) on stdout, indented, and
// on stderr one line per note (what was approximated or left out) and the parameter count,
// so that `envelope import-hf config.json > model.json` keeps the document clean. CONFIG
// is a transformers config.json; - reads stdin. Errors as `envelope eval` prints them:
// `envelope: FILE: PATH: MESSAGE`, exit 2, nothing on stdout.
#include "cli/import_hf_command.hpp"
#include "cli/read_input.hpp"

#include <fstream>
#include <iostream>
#include <string>

#include "common/error.hpp"
#include "common/format.hpp"
#include "io/hf_config.hpp"
#include "io/json_parse.hpp"
#include "model/params.hpp"

namespace envelope::cli {

namespace {

constexpr const char* kUsage = "usage: envelope import-hf CONFIG.json [--name NAME]   (- reads stdin)\n";

std::string billions(double params) { return format_number(params / 1e9, 4) + "B"; }

}  // namespace

int import_hf_command(int argc, char** argv) {
    std::string file;
    std::string name;
    bool have_file = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--name" && i + 1 < argc) {
            name = argv[++i];
        } else if (!have_file && (a == "-" || a.rfind("--", 0) != 0)) {
            file = a;
            have_file = true;
        } else {
            std::cerr << "envelope import-hf: " << (a == "--name" ? "--name needs a value" : "unexpected argument " + a)
                      << "\n" << kUsage;
            return 2;
        }
    }
    if (!have_file) {
        std::cerr << kUsage;
        return 2;
    }
    std::string text;
    if (!read_input(file, kScenarioLimits.max_bytes, text)) {
        std::cerr << "envelope: cannot read " << file << "\n";
        return 2;
    }
    try {
        const HfImport r = import_hf_config(text, name);
        for (const std::string& note : r.notes) std::cerr << "envelope import-hf: note: " << note << "\n";
        const ParamCount p = count_params(r.model);
        const double active = active_params(r.model);
        std::cerr << "envelope import-hf: " << r.model.name << ": " << billions(p.total()) << " parameters"
                  << (active < p.total() ? ", " + billions(active) + " active per token" : std::string()) << "\n";
        std::cout << to_text(r.document, 2) << "\n";
        return 0;
    } catch (const InputError& e) {
        std::cerr << "envelope: " << file << ": " << (e.path().empty() ? std::string() : e.path() + ": ") << e.what()
                  << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "envelope: internal error: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace envelope::cli
