#pragma once
// A published measurement (presets/measured/FORMAT.md) turned into something the model can
// predict: an inference scenario, one GEMM, or one collective.
//
// Reading never fails the run: a case the model cannot express yet throws SkipCase with
// the reason ("training is not modelled yet", "no chip preset for L40S", ...), and
// validate() lists it as skipped.
#include <stdexcept>
#include <string>

#include "io/json.hpp"

namespace envelope {

class SkipCase : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

enum class CaseKind { inference, gemm, collective, training };

struct MeasuredCase {
    std::string id;
    std::string kind;       // as written: "inference", "gemm", ...
    std::string source;
    std::string primary;    // the measured metric the case is scored on
    std::string chip;       // hardware.chip as written ("H100-SXM")
    double measured = 0;
    CaseKind what = CaseKind::inference;

    // The scenario JSON the case describes (inference, gemm and collective cases alike:
    // gemm and collective cases use only its "system"), in the schema of core/SCHEMA.md.
    Json scenario;
    // inference: the largest batch that fits is wanted (offline_max_throughput, batch null)
    bool max_batch = false;
    int64_t replicas = 1;   // inference: independent copies of the scenario (dp)
    int64_t job_chips = 1;  // all chips of the job (hardware.count)

    // gemm: C[m×n] = A[m×k]·B[k×n] in one format
    int64_t m = 0, n = 0, k = 0;
    std::string dtype;

    // collective: nccl-tests op name and buffer size per rank
    std::string op;
    double bytes = 0;
    int64_t ranks = 0;
    int64_t stride = 1;     // the ranks' distance on the network: one rank per node of 8 is 8 apart
    std::string algorithm;  // "ring" or "nvls" when the source forced one, else empty

    // training (and memory) cases: which FLOPs a tflops_per_gpu counts ("model" or
    // "with_recompute")
    std::string tflops_convention;
    // The source does not say which recomputation the run used: the least that fits.
    bool recompute_unknown = false;
};

// Throws SkipCase when the case cannot be predicted; the message says why.
MeasuredCase read_measured_case(const Json& doc);

// The metric names of FORMAT.md, each with the kind of case that can carry it.
bool is_known_metric(const std::string& name);

}  // namespace envelope
