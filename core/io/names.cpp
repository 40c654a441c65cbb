#include "io/names.hpp"

namespace envelope {

const char* to_string(NormKind k) { return k == NormKind::layernorm ? "layernorm" : "rmsnorm"; }

const char* to_string(Topology t) {
    switch (t) {
        case Topology::switch_: return "switch";
        case Topology::fully_connected: return "fully_connected";
        case Topology::ring: return "ring";
        case Topology::torus: return "torus";
        case Topology::fat_tree: return "fat_tree";
        case Topology::dragonfly: return "dragonfly";
    }
    return "";
}

const char* to_string(CollectiveKind k) {
    switch (k) {
        case CollectiveKind::none: return "none";
        case CollectiveKind::all_reduce: return "all_reduce";
        case CollectiveKind::all_gather: return "all_gather";
        case CollectiveKind::reduce_scatter: return "reduce_scatter";
        case CollectiveKind::all_to_all: return "all_to_all";
        case CollectiveKind::broadcast: return "broadcast";
        case CollectiveKind::send_recv: return "send_recv";
    }
    return "";
}

const char* to_string(PipelineSchedule s) {
    switch (s) {
        case PipelineSchedule::gpipe: return "gpipe";
        case PipelineSchedule::one_f_one_b: return "1f1b";
        case PipelineSchedule::interleaved_1f1b: return "interleaved_1f1b";
        case PipelineSchedule::zero_bubble: return "zb_h1";
    }
    return "";
}

const char* to_string(Recompute r) {
    switch (r) {
        case Recompute::none: return "none";
        case Recompute::selective: return "selective";
        case Recompute::full: return "full";
    }
    return "";
}

const char* to_string(OffloadTarget t) {
    switch (t) {
        case OffloadTarget::none: return "none";
        case OffloadTarget::cpu: return "cpu";
        case OffloadTarget::nvme: return "nvme";
    }
    return "";
}

const char* to_string(OpClass c) {
    switch (c) {
        case OpClass::matmul: return "matmul";
        case OpClass::attention: return "attention";
        case OpClass::vector: return "vector";
        case OpClass::lookup: return "lookup";
        case OpClass::collective: return "collective";
        case OpClass::host: return "host";
    }
    return "";
}

const char* to_string(Bound b) {
    switch (b) {
        case Bound::compute: return "compute";
        case Bound::memory: return "memory";
        case Bound::network: return "network";
        case Bound::overhead: return "overhead";
    }
    return "";
}

const char* to_string(LoraTarget t) {
    for (const LoraTargetName& n : kLoraTargetNames) {
        if (n.target == t) return n.name;
    }
    return "";
}

}  // namespace envelope
