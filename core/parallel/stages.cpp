#include "parallel/stages.hpp"

#include <algorithm>

namespace envelope {

std::vector<int64_t> layers_per_stage(const Model& m, const Parallelism& p) {
    if (!p.stage_layers.empty()) return p.stage_layers;
    const int64_t pp = std::max<int64_t>(1, p.pp);
    std::vector<int64_t> out(static_cast<std::size_t>(pp), m.layers() / pp);
    const int64_t extra = m.layers() % pp;
    for (int64_t i = 0; i < extra; ++i) out[static_cast<std::size_t>(pp - 2 - i)] += 1;
    return out;
}

std::vector<Stage> split_stages(const Model& m, const Parallelism& p) {
    const std::vector<int64_t> sizes = layers_per_stage(m, p);
    std::vector<Stage> stages(sizes.size());
    std::size_t group = 0;
    int64_t used = 0;  // layers of m.groups[group] already given to earlier stages
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        Stage& s = stages[i];
        s.index = static_cast<int64_t>(i);
        s.first = i == 0;
        s.last = i + 1 == sizes.size();
        int64_t want = sizes[i];
        while (want > 0 && group < m.groups.size()) {
            const int64_t take = std::min(want, m.groups[group].count - used);
            s.groups.push_back(LayerGroup{m.groups[group].layer, take});
            want -= take;
            used += take;
            if (used == m.groups[group].count) {
                ++group;
                used = 0;
            }
        }
    }
    return stages;
}

Stage by_layer_kind(const Stage& stage) {
    Stage out = stage;
    out.groups.clear();
    for (const LayerGroup& g : stage.groups) {
        const auto same = std::find_if(out.groups.begin(), out.groups.end(),
                                       [&](const LayerGroup& o) { return o.layer == g.layer; });
        if (same == out.groups.end()) {
            out.groups.push_back(g);
        } else {
            same->count += g.count;
        }
    }
    return out;
}

}  // namespace envelope
