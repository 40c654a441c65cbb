#include <doctest/doctest.h>

#include "fixtures.hpp"
#include "inference/evaluate.hpp"
#include "memory/inference_memory.hpp"

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

TEST_CASE("the KV budget under each engine's rule: Qwen3-32B bf16 on one 80 GB H100, worked by hand") {
    // C = 85.52 GB (H100 SXM5, 81 559 MiB), W = 32.76e9 params × 2 B = 65.52 GB, A = 1 GB of
    // activations. A sequence of 2,048 + 256 tokens keeps 64 layers × 2 × 8 KV heads × 128 × 2 B
    // = 262,144 B a token: 603,979,776 B.
    const double C = 85.52e9, W = 65.52e9, A = 1e9, sequence = 2304.0 * 262'144;
    Engine trt;  // free memory: 0.9 · (85.52 − 65.52 − 1) = 17.1 GB → 28 sequences
    CHECK(kv_budget_bytes(trt, C, W, A, 1) == doctest::Approx(17.1e9));
    CHECK(static_cast<int>(kv_budget_bytes(trt, C, W, A, 1) / sequence) == 28);

    Engine vllm;  // vLLM: 0.9 · 85.52 − 65.52 − 1 = 76.968 − 66.52 = 10.448 GB → 17 sequences
    vllm.kv_cache_memory_basis = Engine::KvBasis::total_memory;
    CHECK(kv_budget_bytes(vllm, C, W, A, 1) == doctest::Approx(10.448e9));
    CHECK(static_cast<int>(kv_budget_bytes(vllm, C, W, A, 1) / sequence) == 17);

    // SGLang ≥ 0.5.4 on a 60–160 GiB GPU at tp 1: reserved_mem = 512 + 1.5 × 8192 + 2 × 256
    // + 1024 × 1/8 = 13 440 MiB = 14.09286144 GB, which holds the activations; the pool is
    // 85.52 − 65.52 − 14.09286144 = 5.90713856 GB → 9 sequences.
    Engine sglang = vllm;
    sglang.kv_cache_memory_fraction = 1.0;
    sglang.runtime_reserve_gb = 13'312 * 1048576.0 / 1e9;
    sglang.runtime_reserve_gb_per_replica_chip = 128 * 1048576.0 / 1e9;
    sglang.reserve_holds_activations = true;
    CHECK(kv_budget_bytes(sglang, C, W, A, 1) == doctest::Approx(5.90713856e9));
    CHECK(static_cast<int>(kv_budget_bytes(sglang, C, W, A, 1) / sequence) == 9);
    // Activations larger than the reserve come out whole; nothing left is no budget.
    CHECK(kv_budget_bytes(sglang, C, W, 15e9, 1) == doctest::Approx(5e9));
    CHECK(kv_budget_bytes(sglang, C, 80e9, A, 1) == 0);
}
