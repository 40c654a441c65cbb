#pragma once
// What an evaluation returns, one shape for every workload: headline numbers, the phases
// (each with a per-operator breakdown), memory per chip by part, network traffic per
// parallel dimension, and warnings. SI units throughout.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cost/report.hpp"
#include "memory/inference_memory.hpp"
#include "memory/training_memory.hpp"
#include "network/collective.hpp"
#include "ops/op.hpp"
#include "perf/roofline.hpp"
#include "workload/workload.hpp"

namespace envelope {

struct OpReport {
    const char* name = "";
    OpVariant variant = OpVariant::forward;  // spelled by op_variant_name
    OpClass cls = OpClass::vector;
    Precision precision = Precision::bf16;
    int64_t stage = 0;          // the pipeline stage that runs it
    double count = 1;           // executions per forward pass (layers for per-layer ops)
    // One execution on one chip; for decode, the mean over the generation's steps.
    double flops = 0;
    double bytes_read = 0;
    double bytes_written = 0;
    double network_bytes = 0;   // collectives: buffer size per chip
    double time_s = 0;
    // The whole phase on its stage: count × every step × every micro-batch.
    double total_time_s = 0;
    Bound bound = Bound::memory;  // the roof binding for most of the op's time
    // Collectives: whose groups run it, what the library runs, and the bytes each chip
    // sends over the whole phase (count × every step × every micro-batch).
    ParallelDim dim = ParallelDim::tp;
    Algorithm algorithm = Algorithm::none;
    double total_network_bytes = 0;
};

// The phases a result reports: an inference's prefill and decode, a training step's
// forward and backward passes.
enum class PhaseKind { prefill, decode, forward, backward };

// The one spelling of each phase (the result's "phases" keys).
constexpr const char* phase_kind_name(PhaseKind k) {
    switch (k) {
        case PhaseKind::prefill: return "prefill";
        case PhaseKind::decode: return "decode";
        case PhaseKind::forward: return "forward";
        case PhaseKind::backward: return "backward";
    }
    return "";
}

struct PhaseReport {
    PhaseKind kind = PhaseKind::prefill;
    const char* name() const { return phase_kind_name(kind); }
    int64_t steps = 0;          // forward passes (1 for prefill, output − 1 for decode);
                                // no ops are listed when there are no steps
    double time_s = 0;          // all steps, through the pipeline
    double flops = 0;           // all steps, per chip (mean over the stages)
    double bytes = 0;           // HBM bytes read + written, all steps, per chip (mean over stages)
    // Time in collectives, per chip (mean over the stages), and the part of it no compute
    // hides. Inference engines run the TP all-reduces on the critical path: all exposed.
    double communication_s = 0;
    double exposed_communication_s = 0;
    std::vector<OpReport> ops;  // every stage's, in execution order
};

struct InferenceSummary {
    int64_t chips = 1;                     // chips used: tp · pp · dp
    int64_t chips_per_replica = 1;         // tp · pp
    int64_t replicas = 1;                  // dp
    double params = 0;                     // whole-model parameter count
    double ttft_s = 0;                     // prefill incl. the first token's logits
    std::optional<double> tpot_s;          // mean time per output token after the first;
                                           // none when only one token is generated
    double e2e_latency_s = 0;              // ttft + all decode steps
    double output_tokens_per_s = 0;        // all replicas: dp · batch · output / e2e
    double output_tokens_per_s_per_chip = 0;  // ÷ chips used
    double prefill_tokens_per_s = 0;       // dp · batch · input / ttft
    std::optional<double> tokens_per_step; // speculative decoding: tokens a target pass yields, E
};

// Where one training step's time goes on the critical (slowest) pipeline stage; the parts
// add up to the step time.
struct TrainingBreakdown {
    double compute_s = 0;     // forward, backward and recomputation kernels, all micro-batches
    double tp_s = 0;          // exposed tensor-parallel communication
    double cp_s = 0;          // exposed context-parallel communication
    double pp_s = 0;          // pipeline hand-offs
    double ep_s = 0;          // the experts' all-to-alls
    double zero3_s = 0;       // exposed ZeRO-3 parameter gathers and gradient scatters
    double bubble_s = 0;      // the pipeline's fill and drain
    double dp_s = 0;          // exposed gradient and parameter synchronisation
    double optimizer_s = 0;
    double offload_s = 0;     // host transfers and the host optimizer not hidden (ZeRO-Offload/Infinity)
};

struct TrainingSummary {
    int64_t chips = 1;              // tp · cp · dp · pp
    int64_t replicas = 1;           // dp
    int64_t micro_batches = 1;      // per step and replica (gradient accumulation)
    double params = 0;
    double step_time_s = 0;
    double tokens_per_step = 0;     // global batch × sequence length
    double tokens_per_s = 0;
    double tokens_per_s_per_chip = 0;
    double model_flops = 0;         // per step (training/flops.hpp)
    double hardware_flops = 0;      // per step, recomputation included
    double model_tflops_per_chip = 0;
    double hardware_tflops_per_chip = 0;
    double mfu = 0;                 // model FLOP/s ÷ the chips' dense peak in the GEMM format
    double hfu = 0;
    std::optional<double> train_time_s;   // for workload.train_tokens
    std::optional<double> chip_hours;
    int64_t critical_stage = 0;
    TrainingBreakdown breakdown;
    // The training software whose mechanisms the step assumes (Framework::name); "current
    // practice (...)" when the scenario names none.
    std::string framework;
};

struct PipelineReport {
    int64_t stages = 1;
    int64_t micro_batches = 1;
    int64_t micro_batch = 1;               // sequences per micro-batch
    std::vector<int64_t> stage_layers;
    int64_t virtual_stages = 1;
    PipelineSchedule schedule = PipelineSchedule::one_f_one_b;
};

// One parallel dimension on the network: where its groups sit and what they move.
struct DimensionReport {
    ParallelDim dim = ParallelDim::tp;
    int64_t size = 1;
    int64_t stride = 1;
    Spans spans;                           // the levels it crosses
    double bytes = 0;                      // sent per chip over the whole run (mean over stages)
    double time_s = 0;                     // in its collectives, per chip (mean over stages)
};

// How far measured runs of the same kind fell from the model (validation/error_band.hpp),
// as ratios on the predicted time; zero cases: no band.
struct ResultErrorBand {
    double low = 1, high = 1;
    int cases = 0;
};
struct ResultErrorBands {
    double coverage = 0;
    ResultErrorBand ttft;
    ResultErrorBand generation;
    ResultErrorBand step;       // training: on the step time
};

// A closed loop of clients (concurrency mode, inference/serving.hpp): what its reported phases
// hold, so that per-request totals (energy, cost) count them as often as the loop runs them.
struct LoopPhases {
    int64_t clients = 1;           // N, per replica: requests finished per cycle of the loop
    int64_t slots = 1;             // n: the sequences the decode phase runs (N / n runs a cycle)
    int64_t prompts_per_step = 1;  // k: the prompts the prefill phase runs (N / k runs a cycle)
};

// Disaggregated serving (inference/disaggregated.hpp): each pool's steady state, the KV
// cache's move between them, and what sets the request rate.
enum class PoolBound { clients, prefill, decode_slots };
struct PoolReport {
    int64_t workers = 1;
    int64_t chips = 1;           // workers · chips per worker
    int64_t ranks = 1;           // workers · attention-DP ranks per worker
    int64_t batch_per_rank = 1;  // prefill: prompts per step k; decode: running sequences n
    int64_t slots_per_rank = 1;  // decode: the most it admits (KV cache, batch limit)
    double step_s = 0;           // prefill: one step of k prompts; decode: one decode step
    double utilization = 0;      // prefill: ρ, the queue's load; decode: n / slots
    Bound bound = Bound::memory; // the roof binding most of its phase's time
};
struct KvTransferReport {
    double bytes_per_token = 0;  // the model's KV cache per prompt token, whole request
    double bytes = 0;            // per request: bytes_per_token · input tokens
    double chip_bytes = 0;       // the most one sending or receiving chip moves
    double link_bytes_per_s = 0; // what one chip's links into the level reach
    std::string level;           // the network level it crosses
    bool layerwise = false;
    double time_s = 0;           // the whole move
    double exposed_s = 0;        // in TTFT: all of it, or layer-wise what the prefill does not hide
};
struct DisaggregatedReport {
    PoolReport prefill, decode;
    KvTransferReport transfer;
    PoolBound binds = PoolBound::clients;
    double requests_per_s = 0;   // X, the whole deployment
    double prefill_wait_s = 0;   // the M/D/1 wait for a prefill rank, in TTFT
    double prefill_s = 0;        // the prompt's own prefill, in TTFT
    double decode_join_s = 0;    // half a decode step in progress, in TTFT
    double slot_wait_s = 0;      // the wait for a decode slot, in TTFT
};

// An open loop at an offered request rate (server mode, inference/open_loop.hpp).
struct OpenLoopReport {
    double offered_requests_per_s = 0;   // λ, all replicas
    double capacity_requests_per_s = 0;  // every slot busy (the closed loop at the slot limit)
    int64_t slots = 1;                   // per replica: the KV cache's and the scheduler's limit
    double running_sequences = 0;        // per replica, Little's law
    double prompt_load = 0;              // ρ of the prompt queue
    double queue_wait_s = 0;             // the M/D/1 mean wait for prefill, in TTFT
    bool saturated = false;              // λ ≥ capacity: the numbers are the saturated engine's
};

struct Result {
    WorkloadKind kind = WorkloadKind::inference;
    InferenceSummary summary;   // expected: with the realism layer (perf/realism.hpp)
    InferenceSummary roofline;  // the bound: what the hardware allows (perf/roofline.hpp)
    PipelineReport pipeline;
    std::vector<PhaseReport> phases;
    InferenceMemory memory;     // the stage that needs the most
    TrainingSummary training;   // kind == training
    std::vector<TrainingMemory> training_memory;  // kind == training: one per pipeline stage
    std::optional<FitAdvice> fit_advice;          // kind == training, when a stage does not fit
    std::optional<LoopPhases> loop;               // concurrency and server modes
    std::optional<DisaggregatedReport> disaggregated;  // disaggregated serving only
    std::optional<OpenLoopReport> open_loop;      // server mode only
    std::vector<DimensionReport> network;  // dimensions of size > 1
    std::vector<std::string> warnings;
    ResultErrorBands error_bands;  // filled by the API (api.cpp), not by the evaluator
    CostReport cost;               // cost/workload_cost.hpp

    // The phase of that name; throws std::out_of_range when there is none.
    const PhaseReport& phase(const std::string& name) const;
};

}  // namespace envelope
