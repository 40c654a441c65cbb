#include "validation/disaggregated_case.hpp"

#include <string>

#include "validation/case_fields.hpp"

namespace envelope {

using namespace case_fields;

namespace {

// One worker's layout. moe_tp is written only where it differs from what the layout implies
// without it (parallel/expert_layout.hpp): the experts split over the TP group when ep divides
// dp, else tp / ep when ep < tp, else 1.
Json layout_of(const Json& layout, const std::string& where) {
    const auto degree = [&](const char* key) { return optional_member(layout, key) ? count(layout, key, where) : 1; };
    const int64_t tp = degree("tp"), pp = degree("pp"), dp = degree("dp"), ep = degree("ep");
    if (const Json* atp = optional_member(layout, "attention_tp"); atp && count(layout, "attention_tp", where) != tp) {
        skip(where + ".attention_tp differs from its tp");
    }
    Json out = {{"tp", tp}, {"pp", pp}, {"dp", dp}, {"ep", ep}};
    if (optional_member(layout, "moe_tp")) {
        const int64_t moe_tp = count(layout, "moe_tp", where);
        const int64_t implied = dp % ep == 0 ? tp : ep < tp ? tp / ep : 1;
        if (moe_tp != implied) out["moe_tp"] = moe_tp;
    }
    return out;
}

Json pool_of(const Json& block, const char* workers, const char* layout) {
    const std::string where = "disaggregated";
    if (!optional_member(block, workers)) skip(where + "." + workers + " is null: the pool's size is not stated");
    return {{"workers", count(block, workers, where)},
            {"parallelism", layout_of(member(block, layout, where), where + "." + layout)}};
}

}  // namespace

void read_disaggregated(const Json& doc, MeasuredCase& c) {
    const Json* block = optional_member(doc, "disaggregated");
    if (!block) return;
    Json prefill = pool_of(*block, "prefill_workers", "prefill_layout");
    Json decode = pool_of(*block, "decode_workers", "decode_layout");
    const Json& decode_layout = member(*block, "decode_layout", "disaggregated");
    if (optional_member(decode_layout, "batch_per_rank")) {
        decode["batch_per_rank"] = count(decode_layout, "batch_per_rank", "disaggregated.decode_layout");
    }
    const Json& inf = member(doc, "inference", "case");
    if (c.scenario["workload"]["mode"] != "concurrency") skip("a disaggregated case outside the concurrency mode");
    c.scenario.erase("parallelism");
    c.scenario["disaggregated"] = {{"prefill", std::move(prefill)}, {"decode", std::move(decode)}};
    c.scenario["workload"]["batch"] = count(inf, "batch", "inference");  // the deployment's clients
    c.replicas = 1;
}

}  // namespace envelope
