#include "validation/predict.hpp"

#include "common/error.hpp"
#include "inference/evaluate.hpp"
#include "inference/max_batch.hpp"
#include "io/scenario_json.hpp"
#include "ops/builders.hpp"
#include "parallel/placement.hpp"
#include "perf/context_sum.hpp"
#include "perf/roofline.hpp"

namespace envelope {

namespace {

[[noreturn]] void skip(const std::string& reason) { throw SkipCase(reason); }

Scenario scenario_of(const MeasuredCase& c) {
    try {
        return parse_scenario(c.scenario);
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
    if (c.max_batch) {
        s.workload.batch = largest_batch_that_fits(s);
        if (s.workload.batch == 0) skip("not even one sequence fits in memory");
    }
    if (scenario) {
        *scenario = c.scenario;
        (*scenario)["workload"]["batch"] = s.workload.batch;
    }
    const InferenceResult r = evaluate_inference(s);
    const InferenceSummary& sum = r.summary;
    const double replicas = static_cast<double>(c.replicas);
    const double chips = static_cast<double>(c.job_chips);
    const double batch = static_cast<double>(s.workload.batch);
    if (c.primary == "ttft_ms") return sum.ttft_s * 1e3;
    if (c.primary == "tpot_ms") {
        if (!sum.tpot_s) skip("tpot_ms needs more than one output token");
        return *sum.tpot_s * 1e3;
    }
    if (c.primary == "e2e_latency_ms") return sum.e2e_latency_s * 1e3;
    if (c.primary == "output_tokens_per_s") return sum.output_tokens_per_s * replicas;
    if (c.primary == "output_tokens_per_s_per_gpu") return sum.output_tokens_per_s * replicas / chips;
    if (c.primary == "input_tokens_per_s_per_gpu") {
        return replicas * batch * static_cast<double>(s.workload.input_tokens) / sum.e2e_latency_s / chips;
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

// nccl-tests conventions: algbw = bytes / time; busbw = algbw · (all-reduce 2(n−1)/n,
// all-gather and reduce-scatter (n−1)/n, send/recv 1).
double predict_collective(const MeasuredCase& c) {
    const System sys = system_of(c);
    CollectiveKind kind;
    double bus_factor = 1;
    const double n = static_cast<double>(c.ranks);
    if (c.op == "all_reduce") {
        kind = CollectiveKind::all_reduce;
        bus_factor = 2 * (n - 1) / n;
    } else if (c.op == "all_gather" || c.op == "reduce_scatter") {
        kind = c.op == "all_gather" ? CollectiveKind::all_gather : CollectiveKind::reduce_scatter;
        bus_factor = (n - 1) / n;
    } else if (c.op == "send_recv") {
        kind = CollectiveKind::send_recv;
    } else {
        skip("collective " + c.op + " is not modelled yet");
    }
    const NetworkLevel* level = level_for_group(sys.network, c.ranks);
    if (!level) skip("the group does not fit the innermost network level");
    const Op op = build::collective("collective", 1, kind, constant(c.bytes), c.ranks, Precision::fp32);
    Engine harness;  // nccl-tests: the library, with the algorithm the source forced if any
    harness.collectives.force = c.algorithm == "ring"   ? CollectiveOptions::Force::ring
                                : c.algorithm == "nvls" ? CollectiveOptions::Force::nvls
                                                        : CollectiveOptions::Force::none;
    const double seconds = time_at(roofs_of(op, level, TimingContext{sys.chip, harness, TimingModel::expected}), 0).total_s;
    const double algbw_gbps = c.bytes / seconds / 1e9;
    if (c.primary == "time_us") return seconds * 1e6;
    if (c.primary == "algbw_gbps") return algbw_gbps;
    if (c.primary == "busbw_gbps") return algbw_gbps * bus_factor;
    skip("metric " + c.primary + " is not predicted for a collective");
}

}  // namespace

double predict_case(const MeasuredCase& c, Json* scenario) {
    switch (c.what) {
        case CaseKind::inference: return predict_inference(c, scenario);
        case CaseKind::gemm: return predict_gemm(c);
        case CaseKind::collective: return predict_collective(c);
    }
    skip("unknown kind");
}

}  // namespace envelope
