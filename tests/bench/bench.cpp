// Reproducible micro-benchmark of the core, built twice from this one source: natively
// (build/native/envelope_bench) and to wasm for Node (build/wasm/bench/envelope_bench.js),
// so the two report the same measurements of the same code. Run: ./dev.sh bench
//
// For each preset scenario: parse once per iteration (text → Scenario), evaluate
// (Scenario → Result), serialize (result → JSON text). Each is timed in
// batches sized to ~20 ms; the report gives the median per iteration over 15 batches.
// A sweep then evaluates a grid of configurations (TP × batch × prompt × output) to
// show throughput of the kind a design-space search needs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "api.hpp"
#include "evaluate.hpp"
#include "explore/serving_search.hpp"
#include "explore/training_search.hpp"
#include "inference/evaluate.hpp"
#include "explore/sweep.hpp"
#include "io/result_json.hpp"
#include "io/scenario_json.hpp"
#include "presets/registry.hpp"
#include "version.hpp"

using namespace envelope;

namespace {

using Clock = std::chrono::steady_clock;
volatile double g_sink = 0;  // keeps results observable so nothing is optimized away

// Median seconds per call of `fn` over `rounds` batches of calls.
double median_seconds(const std::function<void()>& fn, int rounds = 15, double batch_s = 0.02) {
    // Size the batch: double until one batch takes at least batch_s / 4.
    long n = 1;
    for (;;) {
        const auto t0 = Clock::now();
        for (long i = 0; i < n; ++i) fn();
        const double dt = std::chrono::duration<double>(Clock::now() - t0).count();
        if (dt >= batch_s / 4 || n > (1L << 30)) {
            n = std::max(1L, static_cast<long>(static_cast<double>(n) * batch_s / std::max(dt, 1e-9)));
            break;
        }
        n *= 2;
    }
    std::vector<double> per_call;
    for (int r = 0; r < rounds; ++r) {
        const auto t0 = Clock::now();
        for (long i = 0; i < n; ++i) fn();
        per_call.push_back(std::chrono::duration<double>(Clock::now() - t0).count() / static_cast<double>(n));
    }
    std::sort(per_call.begin(), per_call.end());
    return per_call[per_call.size() / 2];
}

}  // namespace

int main() {
#ifdef __EMSCRIPTEN__
    const char* target = "wasm (Node)";
#else
    const char* target = "native";
#endif
    std::printf("envelope %s core benchmark, %s build\n", kVersion, target);
    std::printf("median time per call over 15 batches of ~20 ms\n\n");
    std::printf("%-30s %12s %12s %12s\n", "scenario", "parse", "evaluate", "serialize");

    // Warm-up (lets a wasm engine tier up to optimized code before anything is timed).
    {
        const std::string text = find_preset(PresetKind::scenario, "llama2-70b-dgx-h100-tp8")->dump();
        const auto until = Clock::now() + std::chrono::milliseconds(300);
        while (Clock::now() < until) {
            const Scenario s = parse_scenario(parse_json_text(text));
            g_sink = g_sink + static_cast<double>(to_text(to_json(evaluate_inference(s), s)).size());
        }
    }

    for (const auto& key : preset_keys(PresetKind::scenario)) {
        const std::string text = find_preset(PresetKind::scenario, key)->dump();
        const Scenario scenario = parse_scenario(parse_json_text(text));
        const Result result = evaluate(scenario);

        const double parse_s = median_seconds([&] {
            const Scenario s = parse_scenario(parse_json_text(text));
            g_sink = g_sink + static_cast<double>(s.model.layers());
        });
        const double eval_s = median_seconds([&] {
            const Result r = evaluate(scenario);
            g_sink = g_sink + r.summary.e2e_latency_s + r.training.step_time_s;
        });
        const double write_s = median_seconds([&] {
            const std::string out = to_text(to_json(result, scenario));
            g_sink = g_sink + static_cast<double>(out.size());
        });
        std::printf("%-30s %10.2f us %10.2f us %10.2f us\n", key.c_str(), parse_s * 1e6, eval_s * 1e6,
                    write_s * 1e6);
    }

    // Sweep: every TP that divides the heads × 16 batch sizes × 4 prompt × 4 output lengths.
    Scenario base = parse_scenario(*find_preset(PresetKind::scenario, "llama2-70b-dgx-h100-tp8"));
    std::vector<Scenario> grid;
    for (int64_t tp : {1, 2, 4, 8}) {
        for (int64_t batch = 1; batch <= 1 << 15; batch *= 2) {
            for (int64_t in : {128, 1024, 4096, 32768}) {
                for (int64_t out : {1, 128, 1024, 8192}) {
                    Scenario s = base;
                    s.parallelism.tp = tp;
                    s.workload.inference.batch = batch;
                    s.workload.inference.input_tokens = in;
                    s.workload.inference.output_tokens = out;
                    grid.push_back(s);
                }
            }
        }
    }
    const double sweep_s = median_seconds(
        [&] {
            double best = 0;
            for (const Scenario& s : grid) best = std::max(best, evaluate_inference(s).summary.output_tokens_per_s);
            g_sink = g_sink + best;
        },
        5, 0.2);
    std::printf("\nsweep: %zu configurations in %.2f ms = %.0f evaluations/s (%.2f us each)\n", grid.size(),
                sweep_s * 1e3, static_cast<double>(grid.size()) / sweep_s,
                sweep_s / static_cast<double>(grid.size()) * 1e6);

    // The calls that take many evaluations (issue 9): fit and the 64-point curve, and the
    // long-generation and speculative cases that must cost what a short one does.
    {
        const std::string scenario = to_text(*find_preset(PresetKind::scenario, "llama2-70b-dgx-h100-tp8"));
        const double fit_s = median_seconds([&] { g_sink = g_sink + static_cast<double>(fit_json(scenario).size()); }, 15, 0.02);
        const double curve_s =
            median_seconds([&] { g_sink = g_sink + static_cast<double>(curve_json(scenario).size()); }, 15, 0.02);
        std::printf("\nfit() %.2f ms, curve() %.2f ms (64 points) on llama2-70b-dgx-h100-tp8\n", fit_s * 1e3, curve_s * 1e3);
        // sweep(): 64 explicit values in one call, request parsed and answer written (what the
        // page's worker asks for), over the batch and over the prompt.
        for (const char* axis : {"batch", "input_tokens"}) {
            // 64 values: batches 16, 32, … 1024; prompts 128 … 131072 tokens, geometric.
            Json values = Json::array();
            const bool batch = std::string(axis) == "batch";
            for (int64_t v : geometric_values(128, 131072, 64)) values.push_back(v);
            if (batch) {
                values = Json::array();
                for (int64_t i = 1; i <= 64; ++i) values.push_back(16 * i);
            }
            const std::string request =
                to_text(Json{{"scenario", parse_json_text(scenario)}, {"axis", axis}, {"values", values}});
            const double sweep_call_s =
                median_seconds([&] { g_sink = g_sink + static_cast<double>(sweep_json(request).size()); }, 15, 0.02);
            std::printf("sweep() over %s, %zu points: %.2f ms (%.2f us a point)\n", axis, values.size(), sweep_call_s * 1e3,
                        sweep_call_s / static_cast<double>(values.size()) * 1e6);
        }
        for (int64_t out : {100, 100000}) {
            for (int64_t batch : {1, 4096}) {
                Scenario s = base;
                s.workload.inference.output_tokens = out;
                s.workload.inference.batch = batch;
                s.workload.inference.speculative.draft_tokens = 4;
                s.workload.inference.speculative.acceptance = 0.8;
                const double t = median_seconds([&] { g_sink = g_sink + evaluate_inference(s).summary.e2e_latency_s; }, 15, 0.02);
                std::printf("  speculative k=4, batch %5lld, %6lld tokens out: %.2f us\n", static_cast<long long>(batch),
                            static_cast<long long>(out), t * 1e6);
            }
        }
    }

    // Cost (issue 11): one package's chiplet cost, and a 16 × 64 = 1024-point trade-off (each
    // point a full inference evaluation with its cost), request parsed and answer written.
    {
        const Json package = parse_json_text(R"({"kind": "si_interposer",
            "dies": [{"area_mm2": 814, "node": "5nm-actuary-2022"}],
            "hbm": {"stacks": 5, "usd_per_stack": 300, "area_mm2": 110}})");
        const std::string package_text = to_text(package);
        const double package_s =
            median_seconds([&] { g_sink = g_sink + static_cast<double>(package_cost_json(package_text).size()); }, 15, 0.02);
        Json scenario = *find_preset(PresetKind::scenario, "llama2-70b-dgx-h100-tp8");
        scenario["cost"] = {{"pricing", "owned"}, {"package", package}};
        Json stacks = Json::array(), area = Json::array();
        for (int i = 1; i <= 16; ++i) stacks.push_back(i);
        for (int i = 0; i < 64; ++i) area.push_back(400 + 10 * i);
        const std::string request = to_text(Json{{"scenario", scenario},
                                                 {"knobs", Json::array({Json{{"knob", "hbm_stacks"}, {"values", stacks}},
                                                                        Json{{"knob", "die_area_mm2"}, {"values", area}}})}});
        const double tradeoff_s =
            median_seconds([&] { g_sink = g_sink + static_cast<double>(tradeoff_json(request).size()); }, 5, 0.05);
        std::printf("\npackageCost() %.2f us; tradeoff() over 1024 points: %.2f ms (%.2f us a point)\n", package_s * 1e6,
                    tradeoff_s * 1e3, tradeoff_s / 1024 * 1e6);
    }

    // Configuration search (issue 20): the whole default space of each request (presets/
    // searches/), every candidate evaluated or provably pruned; the median of 3 runs.
    {
        std::printf("\nsearch (the default space; candidates = all enumerated, evaluated = fitted and timed):\n");
        {
            Json scenario = *find_preset(PresetKind::scenario, "train-gpt3-175b-1024-a100");
            scenario.erase("parallelism");
            const Scenario base = parse_scenario(scenario);
            TrainingSearch found;
            const double t = median_seconds([&] { found = search_training(base, TrainingSpace{}, TrainingRank::step_time, 10);
                                                  g_sink = g_sink + found.top.size(); }, 3, 0.001);
            std::printf("  training, GPT-3 175B on 1,024 A100: %lld candidates (%lld evaluated, %lld pruned by the "
                        "memory bound, %lld over memory, %lld refused) in %.3f s = %.0f candidates/s, %.0f evaluations/s\n",
                        static_cast<long long>(found.counts.enumerated), static_cast<long long>(found.counts.evaluated),
                        static_cast<long long>(found.counts.pruned_bound), static_cast<long long>(found.counts.over_memory),
                        static_cast<long long>(found.counts.invalid), t, static_cast<double>(found.counts.enumerated) / t,
                        static_cast<double>(found.counts.evaluated) / t);
        }
        {
            const Scenario base = parse_scenario(parse_json_text(R"({"model": "llama-3.1-70b",
                "system": {"preset": "dgx-h100", "count": 16},
                "workload": {"kind": "inference", "mode": "concurrency", "batch": 1, "input_tokens": 1000,
                             "output_tokens": 1000, "precision": "bf16"}})"));
            ServingSpace space;
            space.max_chips = 16;
            space.weights = {Precision::bf16, Precision::fp8};
            space.kv_cache = {Precision::bf16, Precision::fp8};
            Slo slo;
            slo.tokens_per_s_per_user = 20;
            ServingSearch found;
            const double t = median_seconds([&] { found = search_serving(base, space, slo, 10, 10);
                                                  g_sink = g_sink + found.front.size(); }, 3, 0.001);
            std::printf("  serving, Llama-3.1-70B on up to 16 H100 (bf16/fp8 weights and KV): %lld candidates (%lld "
                        "evaluated) in %.3f s = %.0f candidates/s, %.0f evaluations/s\n",
                        static_cast<long long>(found.counts.enumerated), static_cast<long long>(found.counts.evaluated), t,
                        static_cast<double>(found.counts.enumerated) / t, static_cast<double>(found.counts.evaluated) / t);
            space.layouts = ServingLayouts::disaggregated;
            const double td = median_seconds([&] { found = search_serving(base, space, slo, 10, 10);
                                                   g_sink = g_sink + found.front.size(); }, 3, 0.001);
            std::printf("  serving, the same, disaggregated pools: %lld candidates (%lld evaluated) in %.3f s = %.0f "
                        "candidates/s\n",
                        static_cast<long long>(found.counts.enumerated), static_cast<long long>(found.counts.evaluated), td,
                        static_cast<double>(found.counts.enumerated) / td);
        }
    }

    // DeepSeek-V3 (DeepSeek-R1's architecture) on up to 72 GB200, aggregated and disaggregated.
    {
        const Scenario base = parse_scenario(parse_json_text(R"({"model": "deepseek-v3",
            "system": {"preset": "gb200-nvl72", "count": 72},
            "workload": {"kind": "inference", "mode": "concurrency", "batch": 1, "input_tokens": 1000,
                         "output_tokens": 1000, "precision": "fp8"}})"));
        for (ServingLayouts layouts : {ServingLayouts::aggregated, ServingLayouts::disaggregated}) {
            ServingSpace space;
            space.max_chips = 72;
            space.layouts = layouts;
            Slo slo;
            slo.tokens_per_s_per_user = 20;
            ServingSearch found;
            const double t = median_seconds([&] { found = search_serving(base, space, slo, 0, 10);
                                                  g_sink = g_sink + found.front.size(); }, 3, 0.001);
            std::printf("  serving, DeepSeek-V3 on up to 72 GB200, %s: %lld candidates (%lld evaluated, %lld pruned by "
                        "the bound) in %.3f s = %.0f candidates/s\n",
                        spelling_of(kServingLayoutNames, layouts), static_cast<long long>(found.counts.enumerated),
                        static_cast<long long>(found.counts.evaluated), static_cast<long long>(found.counts.pruned_bound), t,
                        static_cast<double>(found.counts.enumerated) / t);
        }
    }

    // Hostile documents (issue 5): the parser's limits keep every one linear in its size.
    // Each is timed through the public entry point (parse, then the error value).
    const auto keys = [](int n, int per_object) {
        std::string t = "[";
        for (int i = 0; i < n; ++i) {
            if (i % per_object == 0) t += (i ? "},{" : "{");
            else t += ",";
            t += "\"k" + std::to_string(i % per_object) + "\":1";
        }
        return t + "}]";
    };
    const struct {
        const char* name;
        std::string text;
        JsonLimits limits;
    } hostile[] = {
        {"1,000,000 keys in one object (12 MB, case-file limits)", keys(1000000, 1000000), kCaseFileLimits},
        {"80,000 keys in objects of 1,000 (accepted)", keys(80000, 1000), kScenarioLimits},
        {"100,000 nested arrays", "{\"x\":" + std::string(100000, '[') + std::string(100000, ']') + "}",
         kScenarioLimits},
    };
    std::printf("\nhostile documents (parse to tree or to the error):\n");
    for (const auto& h : hostile) {
        const double t = median_seconds(
            [&] {
                try {
                    g_sink = g_sink + static_cast<double>(parse_json_text(h.text, h.limits).size());
                } catch (const std::exception& e) {
                    g_sink = g_sink + 1;
                }
            },
            5, 0.05);
        std::printf("  %-58s %9.2f ms  (%zu bytes)\n", h.name, t * 1e3, h.text.size());
    }
    return g_sink > 0 ? 0 : 1;
}
