#pragma once
// The collective operations, as nccl-tests names them.
namespace envelope {

enum class CollectiveKind { none, all_reduce, all_gather, reduce_scatter, all_to_all, broadcast, send_recv };

}  // namespace envelope
