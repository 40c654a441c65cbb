// Disaggregated serving (inference/disaggregated.hpp): the KV cache's size and move, the
// pools' rate matching worked by hand, and the scenario's input.
#include <doctest/doctest.h>

#include <string>

#include "common/error.hpp"
#include "evaluate.hpp"
#include "inference/disaggregated.hpp"
#include "inference/evaluate.hpp"
#include "io/json_parse.hpp"
#include "io/scenario_json.hpp"
#include "validation/measured_case.hpp"

using namespace envelope;

namespace {

// DeepSeek-V3 on two HGX H200 nodes: a TP-8 prefill worker, a DP-8 × EP-8 decode worker.
Json deepseek_doc() {
    return Json::parse(R"({
      "model": "deepseek-v3",
      "system": {"preset": "hgx-h200", "count": 16},
      "disaggregated": {
        "prefill": {"workers": 1, "parallelism": {"tp": 8}},
        "decode": {"workers": 1, "parallelism": {"tp": 1, "dp": 8, "ep": 8}, "batch_per_rank": 64}
      },
      "workload": {"kind": "inference", "mode": "concurrency", "batch": 128,
                   "input_tokens": 8192, "output_tokens": 1024, "precision": "fp8"}
    })");
}

std::string error_path(const Json& doc) {
    try {
        check_scenario(parse_scenario(doc));
    } catch (const InputError& e) {
        return e.path();
    }
    return "(accepted)";
}

}  // namespace

TEST_CASE("a DeepSeek-V3 token's KV cache and its move over one 400 Gb/s NIC, by hand") {
    Scenario s = parse_scenario(deepseek_doc());
    // MLA caches the compressed latent and the shared RoPE key per layer: (kv_lora_rank 512 +
    // qk_rope_dim 64) × 61 layers × 1 byte (fp8) = 35,136 B a token (DeepSeek-V3 report §2.1.1:
    // (d_c + d_h^R)·l elements per token); bf16: 70,272 B.
    const KvMove move = kv_move(s);
    CHECK(move.bytes_per_token == doctest::Approx(35136));
    // The latent is not split by heads: a TP-8 chip holds all of it, as does a DP rank's chip.
    CHECK(move.send_chip_bytes == doctest::Approx(35136.0 * 8192));
    CHECK(move.receive_chip_bytes == doctest::Approx(35136.0 * 8192));
    s.workload.inference.precision.kv_cache = Precision::bf16;
    CHECK(kv_move(s).bytes_per_token == doctest::Approx(70272));

    // 16 chips span two nodes: the move crosses InfiniBand NDR, one 400 Gb/s ConnectX-7 per
    // GPU = 50 GB/s at 0.94 efficiency = 47 GB/s, + 2.7 µs: 8,192 tokens = 287,834,112 B in
    // 287,834,112 / 47e9 s + 2.7 µs = 6.1241 ms + 0.0027 ms = 6.1268 ms.
    const Result r = evaluate(parse_scenario(deepseek_doc()));
    REQUIRE(r.disaggregated);
    const KvTransferReport& t = r.disaggregated->transfer;
    CHECK(t.bytes == doctest::Approx(287834112));
    CHECK(t.link_bytes_per_s == doctest::Approx(47e9));
    CHECK(t.time_s == doctest::Approx(6.1268e-3).epsilon(1e-4));
    CHECK(t.exposed_s == doctest::Approx(t.time_s));  // after the prefill: all of it in TTFT
    CHECK(r.summary.chips == 16);
}

TEST_CASE("the pools' rate matching, worked by hand") {
    // Ten clients (f = 9/10), one prefill rank with s = P₁ = 0.1 s a prompt, t_d = 4 ms,
    // O = 113, no transfer. The cycle is A + wait with A = 0.1 + 0.002 + 112 × 0.004 = 0.55 s
    // and wait = ρ/(2(1−ρ))·0.1, ρ = 0.9·X·0.1. At X = 10: ρ = 0.9, wait = 0.45 s, cycle 1.0 s,
    // X·cycle = 10 = N. So X = 10 req/s, TTFT = 0.45 + 0.1 + 0.002 = 0.552 s: the prefill binds
    // (ρ ≥ 2/3: the wait, 0.45 s, exceeds the prefill, 0.1 s).
    DisaggregatedLoop loop;
    loop.clients = 10;
    loop.prefill_ranks = 1;
    loop.decode_ranks = 1;
    loop.slots_per_rank = 8;  // X·(O − 1)·t_d = 4.48 sequences decode at once: room
    loop.output_tokens = 113;
    loop.prompt_share_s = 0.1;
    loop.prompt_alone_s = 0.1;
    loop.decode_step_s = 0.004;
    const DisaggregatedTimes t = disaggregated_steady_state(loop);
    CHECK(t.requests_per_s == doctest::Approx(10).epsilon(1e-9));
    CHECK(t.prefill_load == doctest::Approx(0.9).epsilon(1e-9));
    CHECK(t.ttft_s == doctest::Approx(0.552).epsilon(1e-9));
    CHECK(t.e2e_s == doctest::Approx(1.0).epsilon(1e-9));
    CHECK(t.binds == PoolBound::prefill);

    // Two decode ranks of two slots, t_d = 10 ms, O = 101 (1 s of decode): at most 4 sequences
    // decode, X ≤ 4 req/s. At X = 4 the prefill is light (ρ = 0.36, wait 0.028125 s), so the
    // decode slots bind: the clients wait for a slot until X·E2E = N, E2E = 10 / 4 = 2.5 s and
    // TTFT = 2.5 − 1.0 = 1.5 s, of which the slot wait is 1.5 − 0.028125 − 0.1 − 0.005.
    loop.decode_ranks = 2;
    loop.slots_per_rank = 2;
    loop.output_tokens = 101;
    loop.decode_step_s = 0.01;
    const DisaggregatedTimes d = disaggregated_steady_state(loop);
    CHECK(d.requests_per_s == doctest::Approx(4));
    CHECK(d.prefill_wait_s == doctest::Approx(0.028125));
    CHECK(d.ttft_s == doctest::Approx(1.5));
    CHECK(d.slot_wait_s == doctest::Approx(1.366875));
    CHECK(d.binds == PoolBound::decode_slots);

    // One client: no queue (f = 0), E2E = P₁ + T + t_d/2 + (O − 1)·t_d.
    loop.clients = 1;
    loop.transfer_s = 0.02;
    const DisaggregatedTimes one = disaggregated_steady_state(loop);
    CHECK(one.ttft_s == doctest::Approx(0.1 + 0.02 + 0.005));
    CHECK(one.requests_per_s == doctest::Approx(1 / (0.125 + 1.0)));
    CHECK(one.binds == PoolBound::clients);
}

TEST_CASE("a disaggregated deployment's TPOT is its decode worker's step, with no prompt in it") {
    const Scenario s = parse_scenario(deepseek_doc());
    const Result r = evaluate(s);
    REQUIRE(r.disaggregated);
    const PoolReport& dec = r.disaggregated->decode;
    Scenario worker = s;
    worker.disaggregated.reset();
    worker.parallelism = s.disaggregated->decode.layout;
    worker.system.count = 8;
    worker.workload.inference.mode = ServingMode::static_batch;
    worker.workload.inference.batch = dec.batch_per_rank;
    CHECK(*r.summary.tpot_s == doctest::Approx(*evaluate_inference(worker).summary.tpot_s));
    // TTFT holds its parts; throughput is Little's law over the clients.
    const DisaggregatedReport& d = *r.disaggregated;
    CHECK(r.summary.ttft_s == doctest::Approx(d.prefill_wait_s + d.prefill_s + d.transfer.exposed_s +
                                              d.decode_join_s + d.slot_wait_s));
    CHECK(r.summary.output_tokens_per_s == doctest::Approx(d.requests_per_s * 1024));
    CHECK(d.requests_per_s * r.summary.e2e_latency_s == doctest::Approx(128).epsilon(1e-6));
    CHECK(r.roofline.output_tokens_per_s >= r.summary.output_tokens_per_s);

    // Layer-wise, the move hides behind the prefill but for its last layer's share (P₁ > T).
    Json doc = deepseek_doc();
    doc["disaggregated"]["kv_transfer"] = "layerwise";
    const Result lw = evaluate(parse_scenario(doc));
    CHECK(lw.disaggregated->transfer.exposed_s == doctest::Approx(lw.disaggregated->transfer.time_s / 61));
    CHECK(lw.summary.ttft_s < r.summary.ttft_s);
}

TEST_CASE("disaggregated input is checked field by field and written back") {
    CHECK(error_path(deepseek_doc()) == "(accepted)");
    Json top = deepseek_doc();
    top["parallelism"] = {{"tp", 8}};
    CHECK(error_path(top) == "parallelism");
    Json big = deepseek_doc();
    big["disaggregated"]["decode"]["workers"] = 2;  // 8 + 16 chips on 16
    CHECK(error_path(big) == "disaggregated");
    Json batch = deepseek_doc();
    batch["workload"]["mode"] = "static";
    CHECK(error_path(batch) == "disaggregated");
    Json tp = deepseek_doc();
    tp["disaggregated"]["decode"]["parallelism"]["tp"] = 3;  // 128 heads
    CHECK(error_path(tp) == "disaggregated.decode.parallelism.tp");
    Json mode = deepseek_doc();
    mode["disaggregated"]["kv_transfer"] = "teleport";
    CHECK(error_path(mode) == "disaggregated.kv_transfer");
    Json workers = deepseek_doc();
    workers["disaggregated"]["prefill"]["workers"] = 0;
    CHECK(error_path(workers) == "disaggregated.prefill.workers");

    const Scenario s = parse_scenario(deepseek_doc());
    const Json written = to_json(s);
    CHECK_FALSE(written.contains("parallelism"));
    const Scenario again = parse_scenario(written);
    REQUIRE(again.disaggregated);
    CHECK(again.disaggregated->decode.layout.dp == 8);
    CHECK(again.disaggregated->decode.batch_per_rank == 64);
    CHECK(to_json(again) == written);
}

TEST_CASE("a measured disaggregated case becomes its two pools") {
    Json doc = Json::parse(R"({
      "id": "d", "source": "test", "kind": "inference",
      "hardware": {"chip": "H200-SXM", "count": 16, "per_node": 8},
      "model": {"name": "m", "layers": 4, "hidden": 1024, "heads": 16, "kv_heads": 8, "head_dim": 64,
                "ffn": 4096, "gated_ffn": true, "vocab": 32000},
      "inference": {"tp": 4, "pp": 1, "ep": 1, "dp": 1, "batch": 48, "input_tokens": 1024,
                    "output_tokens": 128, "mode": "concurrency"},
      "disaggregated": {"prefill_workers": 2, "prefill_layout": {"tp": 2, "pp": 1, "dp": 1, "moe_tp": null, "ep": null},
                        "decode_workers": 3, "decode_layout": {"tp": 4, "pp": 1, "dp": 1, "ep": null, "batch_per_rank": 16}},
      "measured": {"tpot_ms": 10}, "primary": "tpot_ms"
    })");
    const MeasuredCase c = read_measured_case(doc);
    CHECK_FALSE(c.scenario.contains("parallelism"));
    const Json& d = c.scenario["disaggregated"];
    CHECK(d["prefill"]["workers"] == 2);
    CHECK(d["prefill"]["parallelism"]["tp"] == 2);
    CHECK(d["decode"]["workers"] == 3);
    CHECK(d["decode"]["batch_per_rank"] == 16);
    CHECK(c.scenario["workload"]["batch"] == 48);  // the deployment's clients
    CHECK_NOTHROW(check_scenario(parse_scenario(c.scenario)));

    doc["disaggregated"]["prefill_workers"] = nullptr;  // the older rows: sizes not stated
    CHECK_THROWS_AS(read_measured_case(doc), SkipCase);
}
