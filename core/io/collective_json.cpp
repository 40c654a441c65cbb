#include "io/collective_json.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/format.hpp"
#include "io/schema_limits.hpp"
#include "io/fabric_json.hpp"
#include "io/json_reader.hpp"
#include "io/names.hpp"
#include "io/result_json.hpp"
#include "io/scenario_json.hpp"
#include "network/nccl_tests.hpp"
#include "parallel/placement.hpp"
#include "version.hpp"

namespace envelope {

namespace {

constexpr double kMaxBytes = 1e15;
constexpr int kMaxPoints = 200;

std::vector<double> read_sizes(JsonReader& r) {
    if (r.has("bytes") == r.has("sweep")) {
        throw InputError(r.path_of("bytes"), "give either bytes (one size) or sweep {from, to, factor}");
    }
    if (r.has("bytes")) return {r.number("bytes", 1, kMaxBytes)};
    JsonReader sr(r.value("sweep"), r.path_of("sweep"));
    const double from = sr.number("from", 1, kMaxBytes);
    const double to = sr.number("to", from, kMaxBytes);
    const double factor = sr.number_or("factor", 1.01, 1e6, 2);
    sr.finish();
    const double points = std::floor(std::log(to / from) / std::log(factor) + 1e-9) + 1;
    if (points > kMaxPoints) {
        throw InputError(sr.path_of("factor"), "gives " + std::to_string(static_cast<long long>(points)) +
                                                   " sizes; at most " + std::to_string(kMaxPoints));
    }
    std::vector<double> sizes;
    for (double b = from; b <= to * (1 + 1e-12); b *= factor) sizes.push_back(std::round(b));
    return sizes;
}

}  // namespace

Json collective_document(const Json& request) {
    JsonReader r(request, "");
    const System sys = parse_system(r.has("fabric") ? on_fabric(r.value("system"), r.string_or("fabric", ""), "fabric")
                                                    : r.value("system"),
                                    "system");
    const CollectiveKind kind = r.choice("op", kCollectiveKindNames,
                                         {CollectiveKind::all_reduce, CollectiveKind::all_gather,
                                          CollectiveKind::reduce_scatter, CollectiveKind::all_to_all,
                                          CollectiveKind::broadcast, CollectiveKind::send_recv});
    // The system's network may join more chips than its count (a node preset is one node of
    // a fabric): a collective may use all of them.
    const double joined = sys.network.levels.empty() ? 1.0 : sys.network.chips();
    if (joined < 2) throw InputError("system.network", "joins no chips: a collective needs at least 2");
    const int64_t max_chips = static_cast<int64_t>(std::min(joined, static_cast<double>(limits::kMaxChips)));
    const int64_t chips = r.integer("chips", 2, max_chips);
    const int64_t stride = r.integer_or("stride", 1, max_chips, 1);
    if (static_cast<double>(chips) * static_cast<double>(stride) > joined) {
        throw InputError(r.path_of("stride"), "chips × stride = " + std::to_string(chips * stride) +
                                                  " reaches beyond the " + format_number(joined, 15) +
                                                  " chips the network joins");
    }
    CollectiveOptions options;
    options.force = r.choice_or("algorithm", kCollectiveForceNames, CollectiveOptions::Force::none);
    const std::vector<double> sizes = read_sizes(r);
    r.finish();

    const Spans spans = place_group(sys.network, chips, stride);
    Json points = Json::array();
    for (double bytes : sizes) {
        const CollectivePoint p = collective_point(kind, spans, bytes, options);
        points.push_back({{"bytes", p.bytes},
                          {"time_s", p.time_s},
                          {"algbw_gbps", p.algbw_gbps},
                          {"busbw_gbps", p.busbw_gbps},
                          {"algorithm", to_string(p.algorithm)},
                          {"bound_time_s", p.bound_time_s}});
    }
    return Json{{"ok", true},
                {"version", kVersion},
                {"system", sys.name},
                {"op", to_string(kind)},
                {"chips", chips},
                {"stride", stride},
                {"levels", spans_json(spans)},
                {"points", std::move(points)}};
}

}  // namespace envelope
