#include "training/check.hpp"

#include <string>

#include "common/error.hpp"

namespace envelope {

namespace {

std::string str(int64_t v) { return std::to_string(v); }

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
    if (interleaved != (p.virtual_stages > 1)) {
        throw InputError("parallelism.virtual_stages",
                         "virtual_stages > 1 goes with schedule \"interleaved_1f1b\" and only with it");
    }
    if (interleaved && p.pp < 2) {
        throw InputError("parallelism.schedule", "an interleaved schedule needs a pipeline (pp ≥ 2)");
    }
    if (interleaved && p.pp * p.virtual_stages > s.model.layers()) {
        throw InputError("parallelism.virtual_stages", str(p.pp) + " stages × " + str(p.virtual_stages) +
                                                           " chunks need that many layers; the model has " +
                                                           str(s.model.layers()));
    }
    if (!s.system.chip.peak(w.precision)) {
        throw InputError("workload.precision", "chip " + s.system.chip.name + " has no " +
                                                   std::string(to_string(w.precision)) + " peak");
    }
}

}  // namespace envelope
