#include "training/fit_advice.hpp"

#include <functional>
#include <vector>

#include "common/error.hpp"
#include "memory/training_memory.hpp"
#include "parallel/check.hpp"
#include "parallel/stages.hpp"
#include "training/check.hpp"

namespace envelope {

PeakMemory peak_training_memory(const Scenario& s) {
    PeakMemory peak;
    const int64_t m = training_micro_batches(s);
    for (const Stage& stage : split_stages(s.model, s.parallelism)) {
        const TrainingMemory mem = training_memory(TrainingMemoryInput{s.model, stage, s.parallelism, s.workload.training,
                                                                       s.system.chip, m, s.system.host.memory_gb});
        peak.bytes = std::max(peak.bytes, mem.total_bytes);
        peak.fits = peak.fits && mem.fits && mem.host_fits;
    }
    return peak;
}

namespace {

struct Change {
    std::vector<Setting> settings;
    std::function<bool(Scenario&)> apply;  // false: not applicable here
};

std::vector<Change> changes(const Scenario& base) {
    const Parallelism& p = base.parallelism;
    std::vector<Change> out;
    for (int z = p.zero + 1; z <= 3; ++z) {
        out.push_back({{{"parallelism.zero", std::to_string(z)}}, [z](Scenario& s) {
                           if (s.parallelism.dp * s.parallelism.cp < 2) return false;
                           s.parallelism.zero = z;
                           return true;
                       }});
    }
    for (Recompute r : {Recompute::selective, Recompute::full}) {
        if (r <= base.workload.training.recompute) continue;
        const char* name = r == Recompute::selective ? "\"selective\"" : "\"full\"";
        out.push_back({{{"workload.recompute", name}}, [r](Scenario& s) {
                           s.workload.training.recompute = r;
                           return true;
                       }});
    }
    for (int64_t mb = base.workload.training.micro_batch / 2; mb >= 1; mb /= 2) {
        out.push_back({{{"workload.micro_batch", std::to_string(mb)}}, [mb](Scenario& s) {
                           s.workload.training.micro_batch = mb;
                           return true;
                       }});
    }
    const std::string half_dp = std::to_string(p.dp / 2);
    out.push_back({{{"parallelism.pp", std::to_string(p.pp * 2)}, {"parallelism.dp", half_dp}}, [](Scenario& s) {
                       if (s.parallelism.dp % 2 != 0) return false;
                       s.parallelism.pp *= 2;
                       s.parallelism.dp /= 2;
                       s.parallelism.stage_layers.clear();
                       return true;
                   }});
    out.push_back({{{"parallelism.tp", std::to_string(p.tp * 2)}, {"parallelism.dp", half_dp}}, [](Scenario& s) {
                       if (s.parallelism.dp % 2 != 0) return false;
                       s.parallelism.tp *= 2;
                       s.parallelism.dp /= 2;
                       return true;
                   }});
    // Twice the context parallelism: each chip holds half the sequence's activations, for a
    // K/V ring that mostly hides behind attention (the scenario checks refuse a model CP does
    // not take).
    out.push_back({{{"parallelism.cp", std::to_string(p.cp * 2)}, {"parallelism.dp", half_dp}}, [](Scenario& s) {
                       if (s.parallelism.dp % 2 != 0) return false;
                       s.parallelism.cp *= 2;
                       s.parallelism.dp /= 2;
                       return true;
                   }});
    out.push_back({{{"workload.offload.optimizer", "\"cpu\""}}, [](Scenario& s) {
                       if (s.workload.training.offload.optimizer != OffloadTarget::none) return false;
                       s.workload.training.offload.optimizer = OffloadTarget::cpu;
                       return true;
                   }});
    return out;
}

}  // namespace

std::optional<FitAdvice> fit_advice(const Scenario& s) {
    if (peak_training_memory(s).fits) return std::nullopt;
    for (const Change& c : changes(s)) {
        Scenario trial = s;
        if (!c.apply(trial)) continue;
        try {
            check_parallelism(trial.parallelism, trial.model, trial.system);
            check_training(trial);
        } catch (const InputError&) {
            continue;  // not a valid mapping of this model and batch
        }
        const PeakMemory peak = peak_training_memory(trial);
        if (peak.fits) return FitAdvice{c.settings, peak.bytes, s.system.chip.hbm_gb * 1e9};
    }
    return std::nullopt;
}

}  // namespace envelope
