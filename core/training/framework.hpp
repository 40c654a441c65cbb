#pragma once
// The training software: the mechanisms by which a framework makes the same chips and the
// same layout train faster or slower (presets/frameworks/*.json, each with its source).
// Only mechanisms with a physical meaning: which collective reduces the gradients, whether
// the sharded parameters' gathers and the gradients' reduction overlap compute, the bytes a
// gradient element is reduced in, the gradient bucket, the host's unhidden launch cost.
// Never a factor on a step time.
//
// The same 384 A100s run GPT-3 175B with ZeRO-3 at 144 TFLOP/s each under DeepSpeed's 2021
// release, whose stage 3 reduced gradients with all-reduce and gathered parameters
// synchronously, and under PTD-P at 153 (Narayanan et al. 2021, Table 2).
#include <string>

#include "common/spelling.hpp"
#include "engine/engine.hpp"
#include "network/collective_kind.hpp"

namespace envelope {

// What family the profile describes: it picks no formula by itself (the mechanisms below
// do), it tells the result which software the numbers assume.
enum class FrameworkKind { current, megatron, deepspeed, fsdp, maxtext };
inline constexpr Spelling<FrameworkKind> kFrameworkKindNames[] = {
    {FrameworkKind::current, "current"}, {FrameworkKind::megatron, "megatron"}, {FrameworkKind::deepspeed, "deepspeed"},
    {FrameworkKind::fsdp, "fsdp"},       {FrameworkKind::maxtext, "maxtext"},
};

struct Framework {
    std::string name = "current practice (Megatron-Core defaults)";
    std::string source;
    FrameworkKind kind = FrameworkKind::current;

    // ZeRO-3 / FSDP: the collective that reduces each micro-batch's gradients over the
    // data-parallel group (reduce-scatter: each chip keeps its shard; all-reduce: every chip
    // gets the whole sum and keeps its shard, twice the bytes on the wire).
    CollectiveKind sharded_gradient_reduce = CollectiveKind::reduce_scatter;
    // Whether the sharded parameters' all-gathers are prefetched on a side stream behind
    // compute (false: each gather synchronises the device first, so it waits in line).
    bool sharded_gather_overlaps = true;
    // Whether the gradients' reduction runs on a side stream behind the backward pass.
    bool sharded_reduce_overlaps = true;
    // Bytes a gradient element is reduced in: 4 (fp32: Megatron-LM's main_grad and
    // grad_reduce_in_fp32, FSDP2's reduce_dtype fp32) or 2 (the 16-bit model dtype).
    double gradient_reduce_bytes = 4;
    // Parameters per gradient bucket (ZeRO 0-2): max(bucket_params, bucket_params_per_dp · d).
    double bucket_params = 40e6;
    double bucket_params_per_dp = 1e6;
    // Host time per kernel launch that the device does not hide (eager PyTorch without CUDA
    // graphs), µs.
    double launch_overhead_us = 0;
};

// What times a training step's kernels: the collective library's own algorithms (no serving
// engine's custom all-reduce), and the framework's unhidden launch cost.
inline Engine training_engine(const Framework& f) {
    Engine e;
    e.name = f.name;
    e.launch_overhead_us = f.launch_overhead_us;
    return e;
}

}  // namespace envelope
