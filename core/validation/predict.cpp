#include "validation/predict.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "evaluate.hpp"
#include "inference/evaluate.hpp"
#include "inference/max_batch.hpp"
#include "io/names.hpp"
#include "io/scenario_json.hpp"
#include "ops/builders.hpp"
#include "network/nccl_tests.hpp"
#include "parallel/placement.hpp"
#include "perf/context_sum.hpp"
#include "perf/roofline.hpp"

namespace envelope {

namespace {

[[noreturn]] void skip(const std::string& reason) { throw SkipCase(reason); }

Scenario scenario_of(const MeasuredCase& c) {
    try {
        Scenario s = parse_scenario(c.scenario);
        check_scenario(s);
        return s;
    } catch (const InputError& e) {
        skip("its scenario is rejected: " + (e.path().empty() ? "" : e.path() + ": ") + e.what());
    }
}

System system_of(const MeasuredCase& c) {
    try {
        return parse_system(c.scenario["system"], "system");
    } catch (const InputError& e) {
        skip("its system is rejected: " + (e.path().empty() ? "" : e.path() + ": ") + e.what());
    }
}

double predict_inference(const MeasuredCase& c, Json* scenario) {
    Scenario s = scenario_of(c);
    InferenceWorkload& w = s.workload.inference;
    if (c.max_batch) {
        w.batch = largest_batch_that_fits(s);
        if (w.batch == 0) skip("not even one sequence fits in memory");
    }
    if (scenario) {
        *scenario = c.scenario;
        (*scenario)["workload"]["batch"] = w.batch;
    }
    const Result r = evaluate(s);  // a static batch, or the closed loop of a concurrency case
    const InferenceSummary& sum = r.summary;  // output rates count every replica
    const double chips = static_cast<double>(c.job_chips);
    const double sequences = static_cast<double>(w.batch * s.parallelism.dp);
    if (c.primary == "ttft_ms") return sum.ttft_s * 1e3;
    if (c.primary == "tpot_ms") {
        if (!sum.tpot_s) skip("tpot_ms needs more than one output token");
        return *sum.tpot_s * 1e3;
    }
    if (c.primary == "e2e_latency_ms") return sum.e2e_latency_s * 1e3;
    if (c.primary == "output_tokens_per_s") return sum.output_tokens_per_s;
    if (c.primary == "output_tokens_per_s_per_gpu") return sum.output_tokens_per_s / chips;
    if (c.primary == "input_tokens_per_s_per_gpu") {
        return sequences * static_cast<double>(w.input_tokens) / sum.e2e_latency_s / chips;
    }
    skip("metric " + c.primary + " is not predicted for inference");
}

// GEMM and collective cases time one kernel in a benchmark loop (cuBLAS through PyTorch,
// nccl-tests): no serving engine, the library's own collective algorithms.
const Engine kBenchmarkHarness{};
TimingContext microbenchmark(const Chip& chip) { return TimingContext{chip, kBenchmarkHarness, TimingModel::expected}; }

Precision format_of(const std::string& dtype) {
    if (dtype == "float" || dtype == "fp32") return Precision::fp32;
    if (auto p = precision_from_string(dtype)) return *p;
    skip("unknown dtype \"" + dtype + "\"");
}

// One GEMM timed like any matmul op of a model.
double predict_gemm(const MeasuredCase& c) {
    const System sys = system_of(c);
    const Precision p = format_of(c.dtype);
    if (!sys.chip.peak(p)) skip("chip " + sys.chip.name + " has no " + c.dtype + " peak");
    const double m = static_cast<double>(c.m), n = static_cast<double>(c.n), k = static_cast<double>(c.k);
    const Op op = build::matmul("gemm", 1, m, k, n, p, p, p, false);
    const double seconds = time_at(roofs_of(op, nullptr, microbenchmark(sys.chip)), 0).total_s;
    if (c.primary != "gemm_tflops") skip("metric " + c.primary + " is not predicted for a GEMM");
    return 2 * m * n * k / seconds / 1e12;
}

// nccl-tests: one collective over all the case's ranks, `stride` chips apart (§20.2).
double predict_collective(const MeasuredCase& c, Json* request) {
    const System sys = system_of(c);
    const auto* op = std::find_if(std::begin(kCollectiveKindNames), std::end(kCollectiveKindNames),
                                  [&](const Spelling<CollectiveKind>& k) { return k.value != CollectiveKind::none && c.op == k.name; });
    if (op == std::end(kCollectiveKindNames)) skip("collective " + c.op + " is not one nccl-tests runs");
    const CollectiveKind kind = op->value;
    CollectiveOptions options;  // nccl-tests: the library, with the algorithm the source forced if any
    options.force = c.algorithm == "ring"   ? CollectiveOptions::Force::ring
                    : c.algorithm == "nvls" ? CollectiveOptions::Force::in_network
                                            : CollectiveOptions::Force::none;
    if (request) {
        // What `envelope collective` takes to predict the same point (io/collective_json.hpp).
        *request = {{"system", c.scenario["system"]},
                    {"op", c.op},
                    {"chips", c.ranks},
                    {"stride", c.stride},
                    {"bytes", c.bytes},
                    {"algorithm", to_string(options.force)}};
    }
    const CollectivePoint p = collective_point(kind, place_group(sys.network, c.ranks, c.stride), c.bytes, options);
    if (c.primary == "time_us") return p.time_s * 1e6;
    if (c.primary == "algbw_gbps") return p.algbw_gbps;
    if (c.primary == "busbw_gbps") return p.busbw_gbps;
    skip("metric " + c.primary + " is not predicted for a collective");
}

// A training step (or its activation memory) of the case's layout.
double predict_training(const MeasuredCase& c, Json* scenario) {
    Scenario s = scenario_of(c);
    Result r = evaluate(s);
    const auto fits = [](const Result& x) {
        return std::all_of(x.training_memory.begin(), x.training_memory.end(), [](const auto& m) { return m.fits; });
    };
    for (const Recompute next : {Recompute::selective, Recompute::full}) {
        if (!c.recompute_unknown || fits(r)) break;
        s.workload.training.recompute = next;
        r = evaluate(s);
    }
    if (scenario) {
        *scenario = c.scenario;
        if (c.recompute_unknown) (*scenario)["workload"]["recompute"] = to_string(s.workload.training.recompute);
    }
    const TrainingSummary& t = r.training;
    if (c.primary == "step_time_s") return t.step_time_s;
    if (c.primary == "tflops_per_gpu") {
        const double flops = c.tflops_convention == "with_recompute" ? t.hardware_flops : t.model_flops;
        return flops / t.step_time_s / static_cast<double>(c.job_chips) / 1e12;
    }
    if (c.primary == "mfu") return t.mfu;
    if (c.primary == "activation_gib_per_gpu") {
        return r.training_memory.front().activation_bytes / (1024.0 * 1024 * 1024);  // the first stage's
    }
    // The most loaded stage's weights, gradients, optimizer state and activations (§31, §35.4);
    // nothing for what the framework's allocator reserves beyond them.
    if (c.primary == "peak_memory_gib_per_gpu") {
        double peak = 0;
        for (const TrainingMemory& m : r.training_memory) peak = std::max(peak, m.total_bytes);
        return peak / (1024.0 * 1024 * 1024);
    }
    skip("metric " + c.primary + " is not predicted for training");
}

}  // namespace

double predict_case(const MeasuredCase& c, Json* scenario) {
    switch (c.what) {
        case CaseKind::inference: return predict_inference(c, scenario);
        case CaseKind::gemm: return predict_gemm(c);
        case CaseKind::collective: return predict_collective(c, scenario);
        case CaseKind::training: return predict_training(c, scenario);
    }
    skip("unknown kind");
}

}  // namespace envelope
