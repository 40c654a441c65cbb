#include <string>

#include "common/error.hpp"
#include "io/json_reader.hpp"
#include "io/preset_ref.hpp"
#include "io/scenario_json.hpp"

namespace envelope {

namespace {

constexpr Spelling<AllReduceImpl> kImplementations[] = {{AllReduceImpl::library, "library"},
                                                       {AllReduceImpl::custom, "custom"}};
constexpr Spelling<Engine::KvBasis> kKvBases[] = {{Engine::KvBasis::free_memory, "free_memory"},
                                                  {Engine::KvBasis::total_memory, "total_memory"}};

}  // namespace

Engine parse_engine(const Json& value, const std::string& path) {
    const Json doc = resolve_preset(PresetKind::engine, value, path);
    JsonReader r(doc, path);
    Engine e;
    e.name = r.string("name");
    e.source = r.string_or("source", "");
    r.string_or("notes", "");
    if (const Json* m = r.optional_value("matches")) {
        // Which engines named by measured cases this profile describes (validation/).
        JsonReader mr(*m, r.path_of("matches"));
        mr.string("name");
        if (const Json* v = mr.optional_value("versions")) {
            if (!v->is_array() || v->size() != 2 || !(*v)[0].is_string() || !(*v)[1].is_string()) {
                throw InputError(mr.path_of("versions"), "must be [\"from\", \"to\"], two version strings");
            }
        }
        mr.finish();
    }
    e.kv_read_once_per_group = r.boolean("kv_read_once_per_group");
    e.kv_read_allocated_length = r.boolean_or("kv_read_allocated_length", false);
    e.fused_gate_up = r.boolean_or("fused_gate_up", true);
    e.launch_overhead_us = r.number("launch_overhead_us", 0, 1e6);
    e.step_overhead_us = r.number("step_overhead_us", 0, 1e7);
    JsonReader ar(r.value("all_reduce"), r.path_of("all_reduce"));
    e.collectives.all_reduce = ar.choice("implementation", kImplementations);
    e.collectives.one_shot_latency_us = ar.number_or("one_shot_latency_us", 0, 1e6, 0);
    e.collectives.one_shot_efficiency = ar.number_or("one_shot_efficiency", 1e-9, 1, 1);
    if (const Json* limits = ar.optional_value("one_shot")) {
        const std::string lp = ar.path_of("one_shot");
        if (!limits->is_array()) throw InputError(lp, "must be an array of {max_chips, max_bytes}");
        for (std::size_t i = 0; i < limits->size(); ++i) {
            JsonReader lr((*limits)[i], lp + "[" + std::to_string(i) + "]");
            OneShotLimit l;
            l.max_chips = lr.integer("max_chips", 2, 1'000'000);
            l.max_bytes = lr.number("max_bytes", 0, 1e12);
            if (!e.collectives.one_shot.empty() && l.max_chips <= e.collectives.one_shot.back().max_chips) {
                throw InputError(lr.path_of("max_chips"), "must grow from one limit to the next");
            }
            lr.finish();
            e.collectives.one_shot.push_back(l);
        }
    }
    ar.finish();
    e.kv_cache_memory_basis = r.choice_or("kv_cache_memory_basis", kKvBases, Engine::KvBasis::free_memory);
    e.kv_cache_memory_fraction = r.number("kv_cache_memory_fraction", 0.01, 1);
    e.runtime_reserve_gb = r.number_or("runtime_reserve_gb", 0, 1e6, 0);
    e.runtime_reserve_gb_per_replica_chip = r.number_or("runtime_reserve_gb_per_replica_chip", 0, 1e6, 0);
    e.reserve_holds_activations = r.boolean_or("reserve_holds_activations", false);
    e.max_prefill_tokens = r.integer_or("max_prefill_tokens", 0, 100'000'000'000, 0);
    e.max_running_sequences = r.integer_or("max_running_sequences", 0, 1'000'000'000, 0);
    r.finish();
    return e;
}

Json to_json(const Engine& e) {
    Json ar = {{"implementation", spelling_of(kImplementations, e.collectives.all_reduce)}};
    Json limits = Json::array();
    for (const OneShotLimit& l : e.collectives.one_shot) {
        limits.push_back({{"max_chips", l.max_chips}, {"max_bytes", l.max_bytes}});
    }
    ar["one_shot"] = limits;
    ar["one_shot_latency_us"] = e.collectives.one_shot_latency_us;
    ar["one_shot_efficiency"] = e.collectives.one_shot_efficiency;
    return Json{{"name", e.name},
                {"source", e.source},
                {"kv_read_once_per_group", e.kv_read_once_per_group},
                {"kv_read_allocated_length", e.kv_read_allocated_length},
                {"fused_gate_up", e.fused_gate_up},
                {"launch_overhead_us", e.launch_overhead_us},
                {"step_overhead_us", e.step_overhead_us},
                {"all_reduce", ar},
                {"kv_cache_memory_basis", spelling_of(kKvBases, e.kv_cache_memory_basis)},
                {"kv_cache_memory_fraction", e.kv_cache_memory_fraction},
                {"runtime_reserve_gb", e.runtime_reserve_gb},
                {"runtime_reserve_gb_per_replica_chip", e.runtime_reserve_gb_per_replica_chip},
                {"reserve_holds_activations", e.reserve_holds_activations},
                {"max_prefill_tokens", e.max_prefill_tokens},
                {"max_running_sequences", e.max_running_sequences}};
}

}  // namespace envelope
