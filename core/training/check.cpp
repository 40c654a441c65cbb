#include "training/check.hpp"

#include <algorithm>
#include <string>

#include "common/error.hpp"
#include "model/adapters.hpp"

namespace envelope {

namespace {

std::string str(int64_t v) { return std::to_string(v); }

// ZeRO-Offload moves each chip's optimizer shard to its host (Ren et al. 2021), ZeRO-Infinity
// the parameter shards too, from ZeRO-3 only (Rajbhandari et al. 2021; DeepSpeed's
// offload_param is a stage-3 option). Both need the host the system describes.
void check_offload(const Scenario& s) {
    const Offload& o = s.workload.training.offload;
    if (!o.any()) return;
    const Parallelism& p = s.parallelism;
    const HostResources& h = s.system.host;
    if (o.optimizer != OffloadTarget::none && p.zero < 1) {
        throw InputError("workload.offload.optimizer",
                         "offloading the optimizer moves each chip's ZeRO shard to the host: it needs parallelism.zero "
                         "≥ 1 (got 0)");
    }
    if (o.parameters != OffloadTarget::none && p.zero < 3) {
        throw InputError("workload.offload.parameters",
                         "offloading parameters (ZeRO-Infinity) needs parallelism.zero = 3 (got " + str(p.zero) + ")");
    }
    if (h.link_gbps <= 0) {
        throw InputError("system.host.link_gbps", "offload moves model state over each chip's host link: it must be > 0 "
                                                  "(this system describes no host)");
    }
    const bool cpu = o.optimizer == OffloadTarget::cpu || o.parameters == OffloadTarget::cpu;
    if (cpu && h.memory_gb <= 0) {
        throw InputError("system.host.memory_gb", "offloading to \"cpu\" needs the host memory per chip: it must be > 0");
    }
    if (o.optimizer != OffloadTarget::none && h.memory_gbps <= 0) {
        throw InputError("system.host.memory_gbps",
                         "an offloaded optimizer steps on the host CPU at its memory bandwidth: it must be > 0");
    }
    const bool nvme = o.optimizer == OffloadTarget::nvme || o.parameters == OffloadTarget::nvme;
    if (nvme && h.nvme_gbps <= 0) {
        throw InputError("system.host.nvme_gbps", "offloading to \"nvme\" needs the NVMe bandwidth per chip: it must be > 0");
    }
}

// workload.peft against the model: every target a matrix each layer has (adapters on standard
// attention and dense MLPs only so far), the rank at most the narrower side of each adapted
// matrix (a rank-r update of a k × n matrix needs r ≤ min(k, n), Hu et al. 2021 §4.1).
void check_peft(const Scenario& s) {
    const Peft& p = s.workload.training.peft;
    if (!p.on()) return;
    if (s.workload.training.offload.parameters != OffloadTarget::none) {
        throw InputError("workload.offload.parameters", "offloading parameters with a frozen base (workload.peft) is not "
                                                        "modelled yet (use \"none\")");
    }
    for (const LayerGroup& g : s.model.groups) {
        const LayerSpec& l = g.layer;
        for (std::size_t i = 0; i < p.targets.size(); ++i) {
            const LoraTarget t = p.targets[i];
            const std::string path = "workload.peft.targets[" + std::to_string(i) + "]";
            const bool attention = t == LoraTarget::q || t == LoraTarget::k || t == LoraTarget::v ||
                                   t == LoraTarget::qkv || t == LoraTarget::out;
            if (attention && (l.attention.mla.on() || l.mamba.on())) {
                throw InputError(path, "adapters on multi-head latent attention or Mamba mixers are not modelled yet "
                                       "(the model's layers have no plain Q/K/V/O projections)");
            }
            if (!attention && (!l.ffn.present() || l.ffn.is_moe())) {
                throw InputError(path, "adapters on MLP matrices need a dense MLP in every layer (this model has "
                                       "mixture-of-experts or MLP-less layers): target the attention's projections");
            }
            if (t == LoraTarget::gate && !l.ffn.gated) {
                throw InputError(path, "the model's MLP has no gate projection (gated_ffn is false)");
            }
        }
        const LayerShard whole = shard_layer(l, s.model.hidden, 1);
        for (const Adapter& a : layer_adapters(whole, p)) {
            const int64_t widest = static_cast<int64_t>(std::min(a.k, a.n));
            if (p.rank > widest) {
                throw InputError("workload.peft.rank", "rank " + str(p.rank) + " exceeds the narrower side of an adapted "
                                                       "matrix (" + str(static_cast<int64_t>(a.k)) + " × " +
                                                       str(static_cast<int64_t>(a.n)) + "): it must be in [1, " +
                                                       str(widest) + "]");
            }
        }
    }
}

}  // namespace

int64_t training_micro_batches(const Scenario& s) {
    const TrainingWorkload& w = s.workload.training;
    return w.global_batch / (w.micro_batch * s.parallelism.dp);
}

void check_training(const Scenario& s) {
    const TrainingWorkload& w = s.workload.training;
    const Parallelism& p = s.parallelism;
    if (w.global_batch % (w.micro_batch * p.dp) != 0) {
        throw InputError("workload.global_batch",
                         "global batch " + str(w.global_batch) + " must be a whole number of micro-batches of " +
                             str(w.micro_batch) + " on each of the " + str(p.dp) + " data-parallel replicas");
    }
    if (p.micro_batches != 0 && p.micro_batches != training_micro_batches(s)) {
        throw InputError("parallelism.micro_batches", "training takes it from the batch sizes: global_batch / "
                                                      "(micro_batch × dp) = " + str(training_micro_batches(s)));
    }
    if (w.seq_len % p.cp != 0) {
        throw InputError("parallelism.cp", "CP = " + str(p.cp) + " must divide workload.seq_len = " + str(w.seq_len));
    }
    if (p.sp && (w.seq_len / p.cp) % p.tp != 0) {
        throw InputError("parallelism.sp", "sequence parallelism splits each chip's " + str(w.seq_len / p.cp) +
                                               " tokens over TP = " + str(p.tp) + ": TP must divide them");
    }
    const bool interleaved = p.schedule == PipelineSchedule::interleaved_1f1b;
    if (interleaved && p.virtual_stages < 2) {
        throw InputError("parallelism.virtual_stages", "the interleaved schedule needs at least 2 virtual stages (model "
                                                       "chunks) per pipeline stage; virtual_stages = " +
                                                           str(p.virtual_stages));
    }
    if (!interleaved && p.virtual_stages > 1) {
        throw InputError("parallelism.virtual_stages", "virtual_stages = " + str(p.virtual_stages) +
                                                           " needs schedule \"interleaved_1f1b\" (the only schedule "
                                                           "with model chunks)");
    }
    if (interleaved && p.pp < 2) {
        throw InputError("parallelism.schedule", "an interleaved schedule needs a pipeline (pp ≥ 2)");
    }
    if (interleaved && p.pp * p.virtual_stages > s.model.layers()) {
        throw InputError("parallelism.virtual_stages", str(p.pp) + " stages × " + str(p.virtual_stages) +
                                                           " chunks need " + str(p.pp * p.virtual_stages) +
                                                           " layers, one a chunk at least; the model has " +
                                                           str(s.model.layers()));
    }
    check_offload(s);
    check_peft(s);
    if (p.cp > 1) {
        for (const LayerGroup& g : s.model.groups) {
            if (g.layer.attention.mla.on()) {
                throw InputError("parallelism.cp", "context parallelism with multi-head latent attention is not modelled "
                                                   "yet (use cp = 1)");
            }
            if (g.layer.mamba.on()) {
                throw InputError("parallelism.cp", "context parallelism with Mamba layers (the scan's state passed along "
                                                   "the sequence) is not modelled yet (use cp = 1)");
            }
        }
    }
    // A block-scaled training recipe is more than its GEMMs' format: Transformer Engine's MXFP8
    // and NVFP4 recipes keep some layers in bf16, transform the weight-gradient inputs (NVFP4's
    // random Hadamard transform) and round stochastically, none of which is modelled yet.
    if (element_format(w.precision) != w.precision) {
        throw InputError("workload.precision", std::string(to_string(w.precision)) +
                                                   " training (a block-scaled recipe) is not modelled yet: use "
                                                   "bf16, fp16, fp8 or fp4 (block-scaled formats are for inference)");
    }
    if (!s.system.chip.peak(w.precision)) {
        throw InputError("workload.precision", "chip " + s.system.chip.name + " has no " +
                                                   std::string(to_string(element_format(w.precision))) + " peak");
    }
}

}  // namespace envelope
