// Properties any inference evaluation must have, over the preset models and a spread of
// shapes: more memory bandwidth never makes it slower; throughput does not fall as the batch
// grows while it fits; the KV cache grows linearly with the context, flat past a window.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "fixtures.hpp"
#include "inference/evaluate.hpp"
#include "io/scenario_json.hpp"
#include "presets/registry.hpp"

using namespace envelope;

namespace {

const std::vector<std::string> kModels = {"llama-3.1-8b", "mixtral-8x7b", "deepseek-v3", "mistral-7b",
                                          "qwen3-30b-a3b", "jamba-v0.1", "falcon-180b", "mamba-130m"};

Scenario on_h100(const std::string& model, int64_t batch, int64_t input, int64_t output) {
    Scenario s;
    s.model = parse_model(*find_preset(PresetKind::model, model), "model");
    s.system = parse_system(*find_preset(PresetKind::system, "dgx-h100"), "system");
    s.parallelism.tp = 8;
    s.workload.inference.batch = batch;
    s.workload.inference.input_tokens = input;
    s.workload.inference.output_tokens = output;
    s.workload.inference.precision.weights = s.workload.inference.precision.activations = Precision::fp8;
    return s;
}

}  // namespace

TEST_CASE("more HBM bandwidth is never slower") {
    for (const std::string& model : kModels) {
        for (int64_t batch : {1, 32, 256}) {
            CAPTURE(model);
            CAPTURE(batch);
            Scenario s = on_h100(model, batch, 2000, 200);
            const Result base = evaluate_inference(s);
            s.system.chip.hbm_tb_s *= 1.5;
            const Result fast = evaluate_inference(s);
            CHECK(fast.summary.ttft_s <= base.summary.ttft_s * (1 + 1e-12));
            CHECK(*fast.summary.tpot_s <= *base.summary.tpot_s * (1 + 1e-12));
            CHECK(fast.roofline.e2e_latency_s <= base.roofline.e2e_latency_s * (1 + 1e-12));
        }
    }
}

TEST_CASE("throughput does not fall as the batch grows, while it fits") {
    for (const std::string& model : kModels) {
        CAPTURE(model);
        double last = 0;
        for (int64_t batch = 1; batch <= 4096; batch *= 2) {
            const Result r = evaluate_inference(on_h100(model, batch, 1000, 200));
            if (!r.memory.fits) break;
            CAPTURE(batch);
            CHECK(r.summary.output_tokens_per_s >= last * (1 - 1e-9));
            last = r.summary.output_tokens_per_s;
        }
        CHECK(last > 0);
    }
}

TEST_CASE("KV memory grows linearly with the context, and stops growing past a sliding window") {
    for (const std::string& model : kModels) {
        CAPTURE(model);
        const auto kv = [&](int64_t context) {
            return evaluate_inference(on_h100(model, 4, context - 100, 100)).memory.kv_cache_bytes;
        };
        const double a = kv(1000), b = kv(2000), c = kv(3000);
        CHECK(c - b == doctest::Approx(b - a));  // linear below any window in these presets (≥ 4096)
        CHECK(b >= a);
    }
    // Mistral-7B's 4096-token window: flat beyond it.
    const auto mistral = [](int64_t context) {
        return evaluate_inference(on_h100("mistral-7b", 4, context - 100, 100)).memory.kv_cache_bytes;
    };
    CHECK(mistral(8000) == doctest::Approx(mistral(5000)));
    CHECK(mistral(4096) == doctest::Approx(mistral(8000)));
    CHECK(mistral(2048) == doctest::Approx(mistral(4096) / 2));
}
