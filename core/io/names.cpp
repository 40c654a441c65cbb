#include "io/names.hpp"

namespace envelope {

const char* to_string(NormKind k) { return k == NormKind::layernorm ? "layernorm" : "rmsnorm"; }

const char* to_string(Topology t) {
    switch (t) {
        case Topology::ring: return "ring";
        case Topology::switch_: return "switch";
        case Topology::fully_connected: return "fully_connected";
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

}  // namespace envelope
