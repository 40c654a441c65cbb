#include "cli/fit_sustained_command.hpp"

#include <cstdio>
#include <iostream>

#include "cli/read_input.hpp"
#include "common/error.hpp"
#include "io/json_parse.hpp"
#include "validation/sustained_fit.hpp"
#include "validation/validate.hpp"

namespace envelope::cli {

namespace {

std::string pct(double x) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f%%", 100 * x);
    return b;
}

}  // namespace

int fit_sustained_command(const std::string& name) {
    std::string text;
    if (!read_input(name, kCaseFileLimits.max_bytes, text)) {
        std::cerr << "envelope: cannot read " << name << "\n";
        return 2;
    }
    try {
        const std::vector<ChipSustainedFit> fits = fit_sustained(parse_json_text(text, kCaseFileLimits));
        std::cout << "sustained rate per chip: minimise the MAPE of the chip's training cases (PEFT aside) over v in [0.5, 1] step 0.005\n"
                  << "chip                  cases sources  value  MAPE@1  MAPE@v  LOSO MAPE\n";
        for (const ChipSustainedFit& f : fits) {
            char line[256];
            if (f.at_floor) {
                std::snprintf(line, sizeof line, "%-20s %6d %7d  no fit: the least MAPE is on the floor, 0.5 (not a clock): 1; MAPE@1 %s\n",
                              f.chip.c_str(), f.cases, f.sources, pct(f.mape_at_one).c_str());
                std::cout << line;
                continue;
            }
            if (!f.fitted) {
                std::snprintf(line, sizeof line, "%-20s %6d %7d  no fit (needs >= %d sources and >= %d cases): 1, the microbenchmark rate; MAPE@1 %s\n",
                              f.chip.c_str(), f.cases, f.sources, kSustainedMinSources, kSustainedMinCases, pct(f.mape_at_one).c_str());
                std::cout << line;
                continue;
            }
            std::snprintf(line, sizeof line, "%-20s %6d %7d  %5.3f  %6s  %6s  %9s\n", f.chip.c_str(), f.cases, f.sources, f.value,
                          pct(f.mape_at_one).c_str(), pct(f.mape_fitted).c_str(), pct(f.mape_cross).c_str());
            std::cout << line;
            for (const SourceFold& s : f.folds) {
                std::snprintf(line, sizeof line, "    left out: %-60.60s %3d cases  v = %5.3f  MAPE@1 %6s  held-out MAPE %6s\n",
                              s.source.c_str(), s.cases, s.value, pct(s.mape_at_one).c_str(), pct(s.mape_held_out).c_str());
                std::cout << line;
            }
        }
        return 0;
    } catch (const InputError& e) {
        std::cerr << "envelope: " << name << ": " << (e.path().empty() ? std::string() : e.path() + ": ") << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "envelope: internal error: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace envelope::cli
