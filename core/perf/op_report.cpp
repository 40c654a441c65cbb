#include "perf/op_report.hpp"

namespace envelope {

void add_op_report(PhaseReport& phase, const Op& op, const TimeSum& t, int64_t stage, int64_t first, int64_t last,
                   double runs, const Spans* spans, const TimingContext& ctx) {
    const double steps = static_cast<double>(last - first + 1);
    OpReport r;
    r.name = op.name;
    r.variant = op.variant;
    r.cls = op.cls;
    r.precision = op.precision;
    r.stage = stage;
    r.count = op.count;
    r.bound = op.cls == OpClass::host ? Bound::overhead : t.dominant();
    r.total_time_s = t.total_s * op.count * runs;
    r.flops = sum_affine(op.flops, first, last, op.context_cap) / steps;
    r.bytes_read = sum_affine(op.traffic.read(), first, last, op.context_cap) / steps;
    r.bytes_written = sum_affine(op.traffic.written(), first, last, op.context_cap) / steps;
    r.network_bytes = sum_affine(op.message_bytes, first, last, op.context_cap) / steps;
    r.time_s = t.total_s / steps;
    r.dim = op.dim;
    r.total_network_bytes = r.network_bytes * op.count * steps * runs;
    if (spans && ctx.model == TimingModel::expected) {
        r.algorithm = group_collective(op.collective, *spans, op.message_bytes.base, ctx.engine.collectives).algorithm;
    }
    phase.flops += r.flops * op.count * steps * runs;
    phase.bytes += (r.bytes_read + r.bytes_written) * op.count * steps * runs;
    if (op.cls == OpClass::collective) phase.communication_s += r.total_time_s;
    phase.ops.push_back(r);
}

}  // namespace envelope
