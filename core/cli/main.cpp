// envelope — the command-line face of the core.
//
//   envelope eval [--compact] SCENARIO.json
//                                   evaluate (use - for stdin); result JSON on stdout,
//                                   indented, or on one line as the wasm module returns it
//   envelope validate [--json] CASES.json
//   envelope validate --bands CASES.json   (the error bands, as presets/measured/error-bands.json holds them)
//                                   predict every measured case of a file (the format of
//                                   presets/measured/FORMAT.md) and score the predictions
//   envelope fit-sustained CASES.json
//                                   each chip's sustained rate (chip efficiency.sustained) fitted on its
//                                   training cases, leave-one-source-out (cli/fit_sustained_command.cpp)
//   envelope collective --system SYSTEM --op OP --chips N [--bytes B | --sweep ...] [--json]
//                                   predict one collective like nccl-tests measures it
//                                   (cli/collective_command.cpp)
//   envelope sweep SCENARIO.json --axis AXIS (--values V,… | --range FROM TO N) [--json]
//                                   one inference scenario along one axis (cli/sweep_command.cpp)
//   envelope search REQUEST.json    a configuration search, training or serving (api.hpp search_json,
//                                   io/search_json.hpp): the best layouts, the Pareto front
//   envelope require REQUEST.json   the least of each chip resource that meets a target, and which
//                                   binds (api.hpp require_json, io/require_json.hpp)
//   envelope import-hf CONFIG.json [--name NAME]
//                                   a Hugging Face config.json as a model document
//                                   (cli/import_hf_command.cpp)
//   envelope presets [--json]       list the built-in presets
//   envelope --version | --help
//
// Exit codes: 0 success; 2 bad input — an unreadable file, malformed JSON or a bad field
// (a message naming the field on stderr, nothing on stdout); 1 internal error.
// This is the only part of the project that touches files; core itself is I/O-free.
#include <fstream>
#include <iostream>
#include <string>

#include "api.hpp"
#include "cli/collective_command.hpp"
#include "cli/fit_sustained_command.hpp"
#include "cli/import_hf_command.hpp"
#include "cli/read_input.hpp"
#include "cli/sweep_command.hpp"
#include "common/error.hpp"
#include "io/scenario_json.hpp"
#include "presets/registry.hpp"
#include "validation/error_band.hpp"
#include "validation/validate.hpp"
#include "version.hpp"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitBadInput = 2;

const char* kUsage =
    "usage: envelope eval [--compact] SCENARIO.json\n"
    "                                     evaluate a scenario (- reads stdin)\n"
    "       envelope validate [--json] CASES.json\n"
    "       envelope validate --bands CASES.json\n"
    "                                     score the model on measured cases (presets/measured/cases.json)\n"
    "       envelope fit-sustained CASES.json\n"
    "                                     fit each chip's sustained rate on its training cases, cross-validated\n"
    "       envelope fit SCENARIO.json      largest batch and context that fit, fewest chips (inference)\n"
    "       envelope curve SCENARIO.json    throughput against per-user speed as the batch grows (inference)\n"
    "       envelope sweep SCENARIO.json --axis AXIS (--values V,V,... | --range FROM TO POINTS) [--json]\n"
    "                                     evaluate at each value of batch, input_tokens, output_tokens or tp\n"
    "       envelope search REQUEST.json  search training or serving layouts: best, Pareto front, fewest chips\n"
    "       envelope require REQUEST.json the least FLOP/s, HBM bandwidth and capacity, scale-up and scale-out\n"
    "                                     bandwidth that meet a target, each alone, and which binds\n"
    "       envelope tradeoff REQUEST.json  hardware knobs against performance and cost, Pareto front marked\n"
    "       envelope package-cost PACKAGE.json\n"
    "                                     an accelerator package's manufacturing cost by part\n"
    "       envelope collective --system SYSTEM --op OP --chips N [--bytes B | --sweep [FROM TO [FACTOR]]]\n"
    "                                     predict one collective, nccl-tests style (--json for JSON)\n"
    "       envelope import-hf CONFIG.json [--name NAME]\n"
    "                                     a Hugging Face config.json as a model document\n"
    "       envelope presets [--json]     list built-in presets (--json: full documents)\n"
    "       envelope --version\n";

int eval(const std::string& name, bool compact) {
    std::string text;
    if (!envelope::cli::read_input(name, envelope::kScenarioLimits.max_bytes, text)) {
        std::cerr << "envelope: cannot read " << name << "\n";
        return kExitBadInput;
    }
    try {
        const envelope::Json result = envelope::evaluate_document(envelope::parse_json_text(text));
        std::cout << envelope::to_text(result, compact ? -1 : 2) << "\n";
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

// Exit 0 whenever the file is readable JSON: a case that cannot be predicted is skipped
// with its reason, never an error.
int validate(const std::string& name, bool as_json, bool bands = false) {
    std::string text;
    if (!envelope::cli::read_input(name, envelope::kCaseFileLimits.max_bytes, text)) {
        std::cerr << "envelope: cannot read " << name << "\n";
        return kExitBadInput;
    }
    try {
        const envelope::ValidationReport report =
            envelope::validate_cases(envelope::parse_json_text(text, envelope::kCaseFileLimits));
        if (bands) std::cout << envelope::to_text(envelope::error_bands_json(envelope::inference_error_bands(report)), 2) << "\n";
        else if (as_json) std::cout << envelope::to_text(envelope::to_json(report), 2) << "\n";
        else std::cout << envelope::to_text(report);
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

// fit, curve, search, tradeoff, package-cost: a JSON document in, JSON out (api.hpp).
int scenario_call(const std::string& name, std::string (*call)(std::string_view)) {
    std::string text;
    if (!envelope::cli::read_input(name, envelope::kScenarioLimits.max_bytes, text)) {
        std::cerr << "envelope: cannot read " << name << "\n";
        return kExitBadInput;
    }
    const envelope::Json out = envelope::parse_json_text(call(text));
    if (!out.value("ok", false)) {
        const envelope::Json& e = out["error"];
        const std::string path = e.value("path", "");
        std::cerr << "envelope: " << name << ": " << (path.empty() ? "" : path + ": ") << e.value("message", "") << "\n";
        return kExitBadInput;
    }
    std::cout << envelope::to_text(out, 2) << "\n";
    return kExitOk;
}

int presets(bool as_json) {
    if (as_json) {
        std::cout << envelope::presets_json() << "\n";
        return kExitOk;
    }
    using envelope::PresetKind;
    for (PresetKind kind : {PresetKind::model, PresetKind::chip, PresetKind::system, PresetKind::engine, PresetKind::framework,
                            PresetKind::scenario}) {
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
    if (cmd == "eval" && argc == 3) return eval(argv[2], false);
    if (cmd == "eval" && argc == 4 && std::string(argv[2]) == "--compact") return eval(argv[3], true);
    if (cmd == "validate" && argc == 3) return validate(argv[2], false);
    if (cmd == "validate" && argc == 4 && std::string(argv[2]) == "--json") return validate(argv[3], true);
    if (cmd == "validate" && argc == 4 && std::string(argv[3]) == "--json") return validate(argv[2], true);
    if (cmd == "validate" && argc == 4 && std::string(argv[2]) == "--bands") return validate(argv[3], false, true);
    if (cmd == "fit" && argc == 3) return scenario_call(argv[2], envelope::fit_json);
    if (cmd == "curve" && argc == 3) return scenario_call(argv[2], envelope::curve_json);
    if (cmd == "search" && argc == 3) return scenario_call(argv[2], envelope::search_json);
    if (cmd == "require" && argc == 3) return scenario_call(argv[2], envelope::require_json);
    if (cmd == "tradeoff" && argc == 3) return scenario_call(argv[2], envelope::tradeoff_json);
    if (cmd == "package-cost" && argc == 3) return scenario_call(argv[2], envelope::package_cost_json);
    if (cmd == "sweep") return envelope::cli::sweep_command(argc - 1, argv + 1);
    if (cmd == "fit-sustained" && argc == 3) return envelope::cli::fit_sustained_command(argv[2]);
    if (cmd == "collective") return envelope::cli::collective_command(argc - 1, argv + 1);
    if (cmd == "import-hf") return envelope::cli::import_hf_command(argc - 1, argv + 1);
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
