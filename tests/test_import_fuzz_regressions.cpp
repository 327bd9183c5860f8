// Regression tests for problems the libFuzzer targets (tests/fuzz) found in the decoders.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <string>

#include "codec/codec.hpp"
#include "core/estimate.hpp"
#include "core/fields.hpp"

using namespace vramcalc;

namespace {

// What the CLI (--json) and the JS API print must serialise: nlohmann::json::dump throws
// type_error 316 on a string that is not UTF-8, which aborted `vramcalc --link 'name=%FF' --json`.
void check_printable(const codec::DecodeResult& r) {
    CHECK_NOTHROW(codec::issues_to_json(r.issues).dump());
    CHECK_NOTHROW(codec::scenario_to_json(r.scenario).dump());
    auto evaluation = evaluate(r.scenario);
    CHECK_NOTHROW(codec::evaluation_to_json(r.scenario, evaluation).dump());
}

bool has_issue(const codec::DecodeResult& r, const std::string& field) {
    for (const auto& i : r.issues)
        if (i.field == field) return true;
    return false;
}

}  // namespace

TEST_CASE("fuzz regression: text fields that are not UTF-8 are rejected, not stored") {
    // Found by fuzz_decode_link in 11 executions: the link "…&name=%96…" decoded to a model name with a
    // lone continuation byte; the JSON output then threw and the process aborted.
    for (const char* link : {"v=1&name=%FF", "v=1&name=%96", "v=1&gpu=ab%C3", "v=1&name=%ED%A0%80" /* surrogate */,
                             "v=1&name=%C0%AF" /* overlong '/' */, "v=1&name=%F4%90%80%80" /* > U+10FFFF */}) {
        INFO(link);
        auto r = codec::decode_link(link);
        CHECK((has_issue(r, "model.name") || has_issue(r, "hardware.gpu")));
        CHECK(validate(r.scenario).empty());
        check_printable(r);
    }
    auto ok = codec::decode_link("v=1&name=%E2%9C%93%20run%20%F0%9F%9A%80");  // "✓ run 🚀" is fine
    CHECK(ok.issues.empty());
    CHECK(ok.scenario.model.name == "\xE2\x9C\x93 run \xF0\x9F\x9A\x80");

    // The same rule through the JSON decoder when the caller builds the JSON value itself.
    nlohmann::json j = {{"model", {{"name", std::string("\xFF")}}}};
    auto r = codec::scenario_from_json(j);
    CHECK(has_issue(r, "model.name"));
    check_printable(r);

    Scenario s;
    CHECK_FALSE(codec::set_field_from_text(s, *find_field_by_path("model.name"), "a\xC3").empty());
    CHECK(codec::set_field_from_text(s, *find_field_by_path("model.name"), "Größe").empty());
}

TEST_CASE("fuzz regression: messages quoting the input stay UTF-8 (no character cut in half)") {
    // 39 ASCII bytes then a 3-byte character: the old 40-byte excerpt cut "✓" after its first byte.
    std::string value = std::string(39, 'x') + "%E2%9C%93";
    auto r = codec::decode_link("v=1&L=" + value);
    CHECK(has_issue(r, "model.layers"));
    check_printable(r);
    // Keys that are not UTF-8 are named in the issue without their bad bytes.
    for (const std::string& link : {std::string("v=1&%FF%FE=1"), std::string("v=1&%FF"), std::string(40, 'k') + "%E2%9C%93=1"}) {
        INFO(link);
        auto bad = codec::decode_link(link);
        CHECK_FALSE(bad.issues.empty());
        check_printable(bad);
    }
    auto j = codec::scenario_from_json_text("{\"model\": {\"mlp\": \"" + std::string(39, 'y') + "\xE2\x9C\x93\"}}");
    CHECK(has_issue(j, "model.mlp"));
    check_printable(j);
}

TEST_CASE("fuzz regression: numbers an integer field cannot hold are rejected without undefined behaviour") {
    // Found by fuzz_decode_link (UBSan: "1.25e+11 is outside the range of representable values of
    // type 'int'" in the zero_stage setter) from the link item "z=125e9".
    auto r = codec::decode_link("v=1&z=125e9");
    CHECK(has_issue(r, "parallel.zero_stage"));
    CHECK(r.scenario.parallel.zero_stage == Scenario{}.parallel.zero_stage);
    CHECK(validate(r.scenario).empty());
    auto j = codec::scenario_from_json_text(R"({"parallel": {"zero_stage": 9007199254740992}})");
    CHECK(has_issue(j, "parallel.zero_stage"));

    // The field table's setters themselves saturate (UI and bindings call them directly).
    Scenario s;
    const FieldSpec& stage = *find_field_by_path("parallel.zero_stage");
    for (double v : {1.25e11, -1e300, 1e300, std::numeric_limits<double>::quiet_NaN()}) {
        stage.set(s, v);
        CHECK_FALSE(validate(s).empty());
    }
    const FieldSpec& layers = *find_field_by_path("model.layers");
    layers.set(s, 1e30);  // beyond int64
    CHECK(s.model.layers == std::numeric_limits<std::int64_t>::max());
    layers.set(s, -1e30);
    CHECK(s.model.layers == std::numeric_limits<std::int64_t>::lowest());
}
