#include "inference/lengths.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace envelope {

namespace {

struct Node {
    int64_t length = 1;
    double weight = 1;
};

// The integer points and weights that give E[T(L)] for lengths of this mean and variance.
std::vector<Node> nodes_of(double mean, double variance) {
    std::vector<double> reals;
    if (variance > 0) {
        const double sd = std::sqrt(variance);
        reals = {std::max(1.0, mean - sd), mean + sd};
    } else {
        reals = {mean};
    }
    std::vector<Node> out;
    const double share = 1.0 / static_cast<double>(reals.size());
    for (const double x : reals) {
        const double lo = std::floor(x), frac = x - lo;
        if (frac < 1e-9) {
            out.push_back({static_cast<int64_t>(lo), share});
            continue;
        }
        out.push_back({static_cast<int64_t>(lo), share * (1 - frac)});
        out.push_back({static_cast<int64_t>(lo) + 1, share * frac});
    }
    return out;
}

// Sums of the per-request times over the nodes, weighted.
struct Mean {
    double ttft = 0, tpot = 0, tpot_weight = 0, e2e = 0, period = 0, prompt_period = 0;

    void add(const InferenceSummary& s, double w, double input, double output) {
        ttft += w * s.ttft_s;
        e2e += w * s.e2e_latency_s;
        if (s.tpot_s) {
            tpot += w * *s.tpot_s;
            tpot_weight += w;
        }
        // Requests per second at this node: its output rate over its output length.
        period += w * output / s.output_tokens_per_s;
        prompt_period += w * input / s.prefill_tokens_per_s;
    }
    void write(InferenceSummary& s, double input_mean, double output_mean) const {
        s.ttft_s = ttft;
        s.e2e_latency_s = e2e;
        s.tpot_s.reset();
        if (tpot_weight > 0 && output_mean > 1) s.tpot_s = tpot / tpot_weight;
        s.output_tokens_per_s = output_mean / period;
        s.output_tokens_per_s_per_chip = s.output_tokens_per_s / static_cast<double>(s.chips);
        s.prefill_tokens_per_s = input_mean / prompt_period;
    }
};

}  // namespace

Result evaluate_lengths(const Scenario& s, EvaluateOne one) {
    const RequestLengths& l = s.workload.inference.lengths;
    const double in_mean = l.input_mean > 0 ? l.input_mean : static_cast<double>(s.workload.inference.input_tokens);
    const double out_mean = l.output_mean > 0 ? l.output_mean : static_cast<double>(s.workload.inference.output_tokens);
    Result r = one(s);  // the longest request: memory, phases, network
    Mean expected, bound;
    for (const Node& i : nodes_of(in_mean, l.variance_of(in_mean))) {
        for (const Node& o : nodes_of(out_mean, l.variance_of(out_mean))) {
            Scenario at = s;
            at.workload.inference.lengths = RequestLengths{};
            at.workload.inference.lengths.range_ratio = l.range_ratio;  // the loop's arrival spread
            at.workload.inference.input_tokens = i.length;
            at.workload.inference.output_tokens = o.length;
            const Result point = one(at);
            const double w = i.weight * o.weight;
            const auto in = static_cast<double>(i.length), out = static_cast<double>(o.length);
            expected.add(point.summary, w, in, out);
            bound.add(point.roofline, w, in, out);
        }
    }
    expected.write(r.summary, in_mean, out_mean);
    bound.write(r.roofline, in_mean, out_mean);
    return r;
}

}  // namespace envelope
