#pragma once
// Disaggregated serving (prefill/decode disaggregation: DistServe, Zhong et al. 2024,
// arXiv:2401.09670; Splitwise, Patel et al. 2024, arXiv:2311.18677): a prefill pool and a
// decode pool of workers on the same chip type, each worker with its own layout. A request's
// prompt is prefilled on a prefill worker, its KV cache moved to a decode worker over the
// fabric, and its tokens generated there (inference/disaggregated.hpp).
#include <cstdint>

#include "parallel/parallelism.hpp"

namespace envelope {

// One pool: `workers` identical engine instances, each on layout.chips() chips. A worker's
// layout.dp counts its attention data-parallel ranks (DeepSeek-style DP attention, each rank
// with its own requests and KV cache; the experts spread over ep of them): the pool serves
// workers · dp ranks side by side.
struct ServingPool {
    int64_t workers = 1;
    Parallelism layout;
    // The most sequences one rank runs at once (TensorRT-LLM max_batch_size, SGLang
    // --max-running-requests / cuda-graph-max-bs); 0: no limit beyond the KV cache's and
    // the engine's.
    int64_t batch_per_rank = 0;

    int64_t ranks() const { return workers * layout.dp; }
    int64_t chips() const { return workers * layout.chips(); }
};

// When the KV cache leaves the prefill worker: once the request's whole prefill is done
// (TensorRT-LLM's cache transceiver, SGLang's Mooncake/NIXL backends, vLLM's NixlConnector:
// the default), or layer by layer as each layer's prefill finishes (Mooncake's layer-wise
// prefill, Qin et al. 2025, FAST'25 §5.1; LMCache's layer-wise mode), hiding all but the last
// layer's share behind the prefill compute.
enum class KvTransferMode { after_prefill, layerwise };

struct Disaggregated {
    ServingPool prefill;
    ServingPool decode;
    KvTransferMode kv_transfer = KvTransferMode::after_prefill;

    int64_t chips() const { return prefill.chips() + decode.chips(); }
};

}  // namespace envelope
