// View settings in links (units, theme, embed) and unknown preset names: a view key never changes
// what a link means, in any link version; a GPU name this version does not know is reported
// instead of silently taking the default GPU's numbers.
#include <catch2/catch.hpp>

#include <string>

#include "codec/codec.hpp"
#include "core/fields.hpp"

using namespace vramcalc;

namespace {

bool mentions(const std::vector<ValidationIssue>& issues, const std::string& field) {
    for (const auto& i : issues)
        if (i.field == field) return true;
    return false;
}

std::string scenario_text(const Scenario& s) { return codec::scenario_to_json(s).dump(); }

}  // namespace

TEST_CASE("view keys never collide with field keys") {
    for (const auto& k : codec::view_keys()) {
        INFO(k.key);
        CHECK(find_field_by_url_key(k.key) == nullptr);
        CHECK(std::string(k.key) != "v");
        CHECK(std::string(k.key) != "mp");
    }
}

TEST_CASE("view keys leave the scenario of every link version unchanged") {
    // The same links with and without view keys: identical scenarios, no issues from the view keys.
    for (const char* link : {"v=1&mp=gpt2&b=8", "mp=llama-2-7b&z=3", "v=2&mp=llama-3-8b&gpu=H100-SXM&fw=hf&b=2", "v=2"}) {
        INFO(link);
        auto plain = codec::decode_link(link);
        for (const char* view : {"&units=gb", "&theme=light", "&units=gb&theme=dark", "&embed=1"}) {
            auto with = codec::decode_link(std::string(link) + view);
            CHECK(with.issues.size() == plain.issues.size());
            CHECK(scenario_text(with.scenario) == scenario_text(plain.scenario));
        }
        auto first = codec::decode_link("theme=dark&units=gb&" + std::string(link));
        CHECK(scenario_text(first.scenario) == scenario_text(plain.scenario));
    }
}

TEST_CASE("view settings round-trip and report bad values by key") {
    codec::ViewSettings v;
    CHECK(codec::encode_view(v).empty());
    v.units = codec::ViewUnits::gb;
    CHECK(codec::encode_view(v) == "units=gb");
    v.theme = codec::ViewTheme::light;
    CHECK(codec::encode_view(v) == "units=gb&theme=light");
    auto back = codec::decode_view("v=2&mp=gpt2&" + codec::encode_view(v));
    CHECK(back.issues.empty());
    CHECK(back.view == v);

    auto embed = codec::decode_view("#embed=1&v=2&theme=dark");
    CHECK(embed.view.embed);
    CHECK(embed.view.theme == codec::ViewTheme::dark);

    auto bad = codec::decode_view("units=tb&theme=%3Cb%3E&b=4");
    CHECK(bad.view == codec::ViewSettings{});
    CHECK(mentions(bad.issues, "units"));
    CHECK(mentions(bad.issues, "theme"));
    CHECK(bad.issues.size() == 2);  // b=4 is the scenario's, not a view problem
}

TEST_CASE("an unknown GPU preset name in a link is named, not silently given the default GPU's numbers") {
    auto r = codec::decode_link("v=2&gpu=B300&b=2");
    REQUIRE(mentions(r.issues, "hardware.gpu"));
    for (const auto& i : r.issues)
        if (i.field == "hardware.gpu") CHECK(i.message.find("\"B300\"") != std::string::npos);
    // What the page then shows is the default GPU under its own name, not "B300" with A100 numbers.
    CHECK(r.scenario.hardware.gpu == Scenario{}.hardware.gpu);
    CHECK(r.scenario.training.micro_batch_size == 2);

    // A custom GPU that gives its own memory is a label, not a preset name.
    auto custom = codec::decode_link("v=2&gpu=MyCard&mem=96");
    CHECK(custom.ok());
    CHECK(custom.scenario.hardware.gpu == "MyCard");
    CHECK(custom.scenario.hardware.memory_gib == 96);

    // Such a label round-trips even when its numbers equal the defaults.
    Scenario s;
    s.hardware.gpu = "Lab GPU";
    auto back = codec::decode_link(codec::encode_link(s));
    CHECK(back.ok());
    CHECK(scenario_text(back.scenario) == scenario_text(s));
}
