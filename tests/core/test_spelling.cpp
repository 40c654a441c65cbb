// One spelling table per enum (common/spelling.hpp): what the readers accept and what the
// writers print come from the same {value, name} pairs, so a name read back gives its value,
// every value of an enum has a name, and no name stands for two values.
#include <doctest/doctest.h>

#include <cstddef>
#include <set>
#include <string>

#include "common/error.hpp"
#include "explore/trade_off.hpp"
#include "explore/requirement.hpp"
#include "explore/serving_search.hpp"
#include "explore/training_search.hpp"
#include "explore/sweep.hpp"
#include "io/json_reader.hpp"
#include "io/names.hpp"
#include "training/framework.hpp"
#include "workload/peft.hpp"

using namespace envelope;

namespace {

// Each name read back through JsonReader::choice gives the value it is paired with, each value
// is written with its first name, no name appears twice, and the enum's values 0 … count − 1
// all have a name (an enum value added without one fails here).
template <class E, std::size_t N>
void check_table(const Spelling<E> (&table)[N], int count) {
    std::set<std::string> names;
    std::set<int> values;
    for (const Spelling<E>& s : table) {
        CAPTURE(s.name);
        CHECK(names.insert(s.name).second);
        values.insert(static_cast<int>(s.value));
        const Json doc = {{"field", s.name}};
        JsonReader r(doc, "");
        CHECK(r.choice("field", table) == s.value);
        const char* written = spelling_of(table, s.value);
        const Json again = {{"field", written}};
        JsonReader r2(again, "");
        CHECK(r2.choice("field", table) == s.value);
    }
    CHECK(values.size() == static_cast<std::size_t>(count));
    for (int v = 0; v < count; ++v) CHECK(values.count(v) == 1);
}

}  // namespace

TEST_CASE("every enum's spelling table reads back what it writes, and names every value") {
    check_table(kNormKindNames, 2);
    check_table(kTopologyNames, 6);
    check_table(kCollectiveKindNames, 7);
    check_table(kCollectiveForceNames, 3);
    check_table(kPipelineScheduleNames, 4);
    check_table(kRecomputeNames, 3);
    check_table(kOffloadTargetNames, 3);
    check_table(kWorkloadKindNames, 2);
    check_table(kServingModeNames, 3);
    check_table(kOpClassNames, 6);
    check_table(kBoundNames, 4);
    check_table(kParallelDimNames, 6);
    check_table(kFrameworkKindNames, 5);
    check_table(kLoraTargetNames, 9);
    check_table(kBaseFormatNames, 5);
    check_table(kSweepAxisNames, 4);
    check_table(kResourceNames, 5);
    check_table(kRequirementStatusNames, 4);
    check_table(kTrainingRankNames, 3);
    check_table(kServingLayoutNames, 3);
    check_table(kKnobNames, 6);
}

TEST_CASE("the spellings the page and presets use are the ones the tables hold") {
    // Pinned by hand from SCHEMA.md, so that a renamed entry is a visible change of the format.
    CHECK(std::string(to_string(PipelineSchedule::one_f_one_b)) == "1f1b");
    CHECK(std::string(to_string(PipelineSchedule::zero_bubble)) == "zb_h1");
    CHECK(std::string(to_string(Topology::switch_)) == "switch");
    CHECK(std::string(to_string(ServingMode::static_batch)) == "static");
    CHECK(std::string(to_string(CollectiveOptions::Force::none)) == "auto");
    // An alias is read, and the value is written with its first name.
    CHECK(std::string(to_string(LoraTarget::out)) == "o_proj");
    const Json alias = {{"t", "linear_proj"}};
    JsonReader r(alias, "");
    CHECK(r.choice("t", kLoraTargetNames) == LoraTarget::out);
}

TEST_CASE("a field that takes some of an enum's values lists those, in its own order, and refuses the rest") {
    const Json doc = {{"op", "none"}};
    JsonReader r(doc, "");
    try {
        r.choice("op", kCollectiveKindNames, {CollectiveKind::reduce_scatter, CollectiveKind::all_reduce});
        FAIL("\"none\" was accepted");
    } catch (const InputError& e) {
        CHECK(e.path() == "op");
        CHECK(std::string(e.what()) == "must be one of \"reduce_scatter\", \"all_reduce\", got \"none\"");
    }
    const Json absent = Json::object();
    JsonReader r2(absent, "");
    CHECK(r2.choice_or("op", kCollectiveKindNames, CollectiveKind::all_gather, {CollectiveKind::all_reduce}) ==
          CollectiveKind::all_gather);
    r2.finish();  // the absent field counts as read
}
