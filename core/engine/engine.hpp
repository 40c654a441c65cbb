#pragma once
// The serving software: the mechanisms by which an engine makes the same hardware run a
// model faster or slower. Only mechanisms with a physical meaning, each with a source
// about that engine (presets/engines/*.json); never a factor on a final answer.
//
// The same H100s give very different numbers under TensorRT-LLM 0.5 (2023) and 0.19
// (2025): the decode attention kernel, launch overheads, the all-reduce implementation
// and the memory the KV cache gets all changed between them.
#include <string>

#include "network/collective.hpp"

namespace envelope {

struct Engine {
    std::string name;       // "TensorRT-LLM 0.5"
    std::string source;

    // Decode attention reads each KV head once for the query heads that share it (GQA/MQA
    // aware kernels such as TensorRT-LLM's XQA, FlashInfer, vLLM's paged attention), or
    // once per query head (kernels written for multi-head attention).
    bool kv_read_once_per_group = true;
    // Static-shape engines pre-allocate the KV cache for prompt + generation and run
    // decode attention over all of it every step (the padding is masked, not skipped).
    bool kv_read_allocated_length = false;

    // A gated MLP's gate and up projections run as one GEMM of twice the width, or as two
    // GEMMs (TensorRT-LLM before 0.13: two matmuls and a combining kernel).
    bool fused_gate_up = true;

    // Host time to launch one kernel that the GPU cannot hide (eager launches without CUDA
    // graphs leave gaps between short kernels), µs; ~0 with graph capture.
    double launch_overhead_us = 0;
    // Fixed host time per forward pass (scheduling, sampling, synchronisation), µs.
    double step_overhead_us = 0;

    // How tensor-parallel all-reduces run: the library's algorithm, or the engine's own
    // one-shot/two-shot kernels (network/collective.hpp).
    CollectiveOptions collectives;

    // How the engine sizes its KV cache (METHODOLOGY.md §16.3), with C the chip's memory,
    // W the weights, A the activations, f kv_cache_memory_fraction, R the runtime reserve:
    //   free_memory   f · (C − W − A)          TensorRT-LLM kv_cache_free_gpu_mem_fraction
    //   total_memory  f · C − W − A − R        vLLM gpu_memory_utilization (weights, the profiled
    //                                          activations and the runtime's own memory all come
    //                                          out of f · C); SGLang mem_fraction_static with
    //                                          reserve_holds_activations: f · C − W − max(A, R)
    enum class KvBasis { free_memory, total_memory };
    KvBasis kv_cache_memory_basis = KvBasis::free_memory;
    double kv_cache_memory_fraction = 0.9;
    // Memory per chip the runtime holds besides weights, KV cache and activations when the
    // cache is sized (CUDA context, communicator buffers, CUDA graphs), bytes: a fixed part plus
    // a part per chip of the replica (tp · pp). Total-memory basis only.
    double runtime_reserve_gb = 0;
    double runtime_reserve_gb_per_replica_chip = 0;
    // The reserve is sized to hold a prefill chunk's activations too (SGLang's reserved_mem),
    // so the activations come out of it rather than beside it.
    bool reserve_holds_activations = false;
    // The most sequences the scheduler runs at once (vLLM max_num_seqs, TensorRT-LLM
    // max_batch_size); 0: only the KV cache bounds them.
    int64_t max_running_sequences = 0;
    // The most prompt tokens one forward pass takes (TensorRT-LLM max_num_tokens, vLLM
    // max_num_batched_tokens): a larger prefill runs in chunks, which bounds activation
    // memory. 0: every prompt of the batch at once (static engines).
    int64_t max_prefill_tokens = 0;
};

}  // namespace envelope
