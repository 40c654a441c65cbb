#include <doctest/doctest.h>

#include "fixtures.hpp"
#include "inference/evaluate.hpp"

using namespace envelope;

TEST_CASE("memory per chip: weights, KV cache, activations") {
    // Tiny model, TP = 2, batch 3, 100 + 28 tokens, bf16.
    const Result r = evaluate_inference(test::tiny_scenario(2, 3, 100, 28));
    const InferenceMemory& m = r.memory;

    // Per layer per chip: attention 1024·(512+256) + 512·1024 = 1,310,720; MLP
    // 2·1024·2048 + 2048·1024 = 6,291,456; norms 2048. Two layers, plus embedding and
    // LM head 500·1024 each and the final norm 1024 → 16,233,472 params · 2 B.
    CHECK(m.weights_bytes == 2.0 * (2 * (1'310'720 + 6'291'456 + 2'048) + 2 * 512'000 + 1'024));
    // KV: 2 · 2 layers · 1 head · 128 · 2 B · 3 sequences · 128 tokens
    CHECK(m.kv_cache_bytes == 2.0 * 2 * 128 * 2 * 3 * 128);
    // Activations: the 300 × 1024 residual stream (614,400 B) + the largest op working
    // set, SiLU·up: reads 300·4096 (gate and up), writes 300·2048 elements.
    CHECK(m.activation_bytes == 614'400 + 2.0 * 300 * (4096 + 2048));
    CHECK(m.total_bytes == m.weights_bytes + m.kv_cache_bytes + m.activation_bytes);
    CHECK(m.capacity_bytes == 100e9);
    CHECK(m.fits);
}
