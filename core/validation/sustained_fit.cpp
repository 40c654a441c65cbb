#include "validation/sustained_fit.hpp"

#include <cmath>
#include <map>
#include <set>

#include "validation/measured_case.hpp"
#include "validation/predict.hpp"

namespace envelope {

namespace {

constexpr double kLow = 0.5, kStep = 0.005;
constexpr int kPoints = 101;  // 0.5, 0.505, ..., 1.0

double grid(int i) { return kLow + kStep * i; }

struct Scored {
    std::string source;
    std::vector<double> error;  // |pred / measured − 1| at each grid point
};

double mape_of(const std::vector<const Scored*>& cases, int i) {
    if (cases.empty()) return 0;
    double sum = 0;
    for (const Scored* c : cases) sum += c->error[static_cast<std::size_t>(i)];
    return sum / static_cast<double>(cases.size());
}

// The grid point of the least MAPE, the larger v on a tie.
int best_point(const std::vector<const Scored*>& cases) {
    int best = kPoints - 1;
    for (int i = kPoints - 1; i >= 0; --i) {
        if (mape_of(cases, i) < mape_of(cases, best) - 1e-12) best = i;
    }
    return best;
}

bool is_training_metric(const std::string& m) { return m == "step_time_s" || m == "tflops_per_gpu" || m == "mfu"; }

}  // namespace

std::string source_group(const std::string& source) {
    std::size_t end = source.size();
    for (const char* sep : {" (", ";", ","}) end = std::min(end, source.find(sep));
    return source.substr(0, end);
}

std::vector<ChipSustainedFit> fit_sustained(const Json& docs) {
    std::map<std::string, std::vector<Scored>> by_chip;
    for (const Json& doc : docs) {
        if (!doc.is_object() || !doc.contains("kind") || doc["kind"] != "training") continue;
        if (const auto t = doc.find("training"); t != doc.end() && t->contains("peft") && !(*t)["peft"].is_null()) continue;
        MeasuredCase c;
        try {
            c = read_measured_case(doc);
            if (!is_training_metric(c.primary)) continue;
            predict_case(c);  // skipped cases stay out
        } catch (const SkipCase&) {
            continue;
        }
        const Json chip = c.scenario["system"]["chip"];
        if (!chip.is_string()) continue;
        Scored s{source_group(c.source), {}};
        for (int i = 0; i < kPoints; ++i) {
            MeasuredCase at = c;
            at.scenario["system"]["chip"] = {{"preset", chip}, {"efficiency", {{"sustained", {{"value", grid(i)}}}}}};
            s.error.push_back(std::fabs(predict_case(at) / c.measured - 1));
        }
        by_chip[chip.get<std::string>()].push_back(std::move(s));
    }
    std::vector<ChipSustainedFit> out;
    for (const auto& [chip, scored] : by_chip) {
        ChipSustainedFit f;
        f.chip = chip;
        f.cases = static_cast<int>(scored.size());
        std::vector<const Scored*> all;
        std::set<std::string> sources;
        for (const Scored& s : scored) all.push_back(&s), sources.insert(s.source);
        f.sources = static_cast<int>(sources.size());
        f.mape_at_one = mape_of(all, kPoints - 1);
        f.fitted = f.sources >= kSustainedMinSources && f.cases >= kSustainedMinCases;
        f.mape_fitted = f.mape_at_one;
        const int best = f.fitted ? best_point(all) : kPoints - 1;
        // On the grid's floor the gap is not a clock: no fit (METHODOLOGY.md §37.2).
        if (f.fitted && best == 0) {
            f.fitted = false;
            f.at_floor = true;
        }
        if (f.fitted) {
            f.value = grid(best);
            f.mape_fitted = mape_of(all, best);
            double weighted = 0;
            for (const std::string& src : sources) {
                std::vector<const Scored*> in, out_of;
                for (const Scored& s : scored) (s.source == src ? out_of : in).push_back(&s);
                const int i = best_point(in);
                SourceFold fold{src, static_cast<int>(out_of.size()), grid(i), mape_of(out_of, kPoints - 1), mape_of(out_of, i)};
                weighted += fold.mape_held_out * fold.cases;
                f.folds.push_back(fold);
            }
            f.mape_cross = weighted / f.cases;
        }
        out.push_back(std::move(f));
    }
    return out;
}

}  // namespace envelope
