#include "io/disaggregated_json.hpp"

#include "io/json_reader.hpp"
#include "io/names.hpp"
#include "io/schema_limits.hpp"

namespace envelope {

using namespace limits;

namespace {

constexpr Spelling<KvTransferMode> kTransfer[] = {{KvTransferMode::after_prefill, "after_prefill"},
                                                  {KvTransferMode::layerwise, "layerwise"}};
constexpr Spelling<PoolBound> kBinds[] = {
    {PoolBound::clients, "clients"}, {PoolBound::prefill, "prefill"}, {PoolBound::decode_slots, "decode_slots"}};

ServingPool parse_pool(const Json& value, const std::string& path) {
    JsonReader r(value, path);
    ServingPool p;
    p.workers = r.integer("workers", 1, kMaxChips);
    p.layout = r.has("parallelism") ? parse_parallelism(r.value("parallelism"), r.path_of("parallelism")) : Parallelism{};
    if (p.layout.dp == 0) p.layout.dp = 1;  // not given: one attention rank per worker
    p.batch_per_rank = r.integer_or("batch_per_rank", 1, kMaxBatch, 0);
    r.finish();
    return p;
}

Json to_json(const ServingPool& p) {
    Json j = {{"workers", p.workers}, {"parallelism", to_json(p.layout)}};
    if (p.batch_per_rank > 0) j["batch_per_rank"] = p.batch_per_rank;
    return j;
}

}  // namespace

Disaggregated parse_disaggregated(const Json& value, const std::string& path) {
    JsonReader r(value, path);
    Disaggregated d;
    d.prefill = parse_pool(r.value("prefill"), r.path_of("prefill"));
    d.decode = parse_pool(r.value("decode"), r.path_of("decode"));
    d.kv_transfer = r.choice_or("kv_transfer", kTransfer, KvTransferMode::after_prefill);
    r.finish();
    return d;
}

Json to_json(const Disaggregated& d) {
    return {{"prefill", to_json(d.prefill)},
            {"decode", to_json(d.decode)},
            {"kv_transfer", spelling_of(kTransfer, d.kv_transfer)}};
}

namespace {

Json pool_json(const PoolReport& p, bool decode) {
    Json j = {{"workers", p.workers},
              {"chips", p.chips},
              {"ranks", p.ranks},
              {decode ? "running_per_rank" : "prompts_per_step", p.batch_per_rank},
              {"step_s", p.step_s},
              {decode ? "slot_use" : "load", p.utilization},
              {"bound", to_string(p.bound)}};
    if (decode) j["slots_per_rank"] = p.slots_per_rank;
    return j;
}

}  // namespace

Json to_json(const DisaggregatedReport& d) {
    const KvTransferReport& t = d.transfer;
    return {{"prefill", pool_json(d.prefill, false)},
            {"decode", pool_json(d.decode, true)},
            {"kv_transfer",
             {{"bytes_per_token", t.bytes_per_token},
              {"bytes", t.bytes},
              {"chip_bytes", t.chip_bytes},
              {"level", t.level},
              {"link_bytes_per_s", t.link_bytes_per_s},
              {"layerwise", t.layerwise},
              {"time_s", t.time_s},
              {"exposed_s", t.exposed_s}}},
            {"binds", spelling_of(kBinds, d.binds)},
            {"requests_per_s", d.requests_per_s},
            {"ttft_parts_s",
             {{"prefill_wait", d.prefill_wait_s},
              {"prefill", d.prefill_s},
              {"kv_transfer", t.exposed_s},
              {"decode_join", d.decode_join_s},
              {"slot_wait", d.slot_wait_s}}}};
}

}  // namespace envelope
