// libFuzzer target: scenario_from_fields, the JS API's typed decoding path, against the JSON path it
// must equal (codec/scenario_json.hpp): the fuzzer picks fields, values of each field's type (what the
// wrapper sends; anything else goes as JSON) and a model preset; the same object is built as JSON.
// Both decoders must give the same scenario, issues and notes, in the same order.
#include <fuzzer/FuzzedDataProvider.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "core/model/presets.hpp"
#include "fuzz_common.hpp"

namespace {

std::string issues_and_notes(const vramcalc::codec::DecodeResult& r) {
    std::string out = fuzz::issues_text(r.issues);
    for (const auto& n : r.notes) out += " | " + n.field + ": " + n.message;
    return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace vramcalc;
    FuzzedDataProvider in(data, size);
    const auto fields = scenario_fields();
    const auto presets = model_presets();

    codec::FieldValues typed;
    nlohmann::json json = nlohmann::json::object();
    std::string preset;
    int preset_form = in.ConsumeIntegralInRange(0, 3);  // 0 none, 1 model.preset, 2 "model": "<id>", 3 any text
    if (preset_form == 1 || preset_form == 2)
        preset = presets[in.ConsumeIntegralInRange<std::size_t>(0, presets.size() - 1)].id;
    else if (preset_form == 3)
        preset = in.ConsumeRandomLengthString(40);

    std::vector<std::string> texts;  // FieldValue::text views these: no reallocation after the loop
    texts.reserve(64);
    std::vector<codec::FieldValue> values;
    std::set<std::size_t> used;
    int count = in.ConsumeIntegralInRange(0, 24);
    for (int i = 0; i < count && in.remaining_bytes() > 0; ++i) {
        std::size_t index = in.ConsumeIntegralInRange<std::size_t>(0, fields.size() - 1);
        if (!used.insert(index).second) continue;  // each field at most once
        const FieldSpec& f = fields[index];
        std::string path = f.path;
        std::string section = path.substr(0, path.find('.')), key = path.substr(path.find('.') + 1);
        codec::FieldValue v{&f};
        nlohmann::json value;
        switch (f.kind) {
            case FieldKind::text:
                texts.push_back(in.ConsumeRandomLengthString(300));
                v.text = texts.back();
                value = texts.back();
                break;
            case FieldKind::boolean:
                v.number = in.ConsumeBool() ? 1.0 : 0.0;
                value = v.number != 0.0;
                break;
            case FieldKind::choice:
                v.number = double(in.ConsumeIntegralInRange<std::size_t>(0, f.choices.size() - 1));
                value = f.choices[std::size_t(v.number)];
                break;
            case FieldKind::integer:
            case FieldKind::number: {
                // What JavaScript sends: a finite double; -0 goes as 0 (as JSON.stringify writes it).
                double x = in.ConsumeBool() ? double(in.ConsumeIntegralInRange<std::int64_t>(-100000, 100000000))
                                            : in.ConsumeFloatingPoint<double>();
                if (!std::isfinite(x)) continue;
                if (x == 0) x = 0;
                v.number = x;
                // JSON.stringify writes integral values below 2^53 as integers, the rest as doubles.
                if (x == std::trunc(x) && std::fabs(x) < 9007199254740992.0) value = std::int64_t(x);
                else value = x;
                break;
            }
        }
        if (section == "model" && preset_form == 2) continue;  // the "model": "<id>" form has no model fields
        values.push_back(v);
        if (path.find('.') == std::string::npos) json[path] = value;  // a top-level field (workload)
        else json[section][key] = value;
    }
    if (preset_form == 1 || preset_form == 3) {
        typed.model_preset = preset;
        json["model"]["preset"] = preset;
    } else if (preset_form == 2) {
        typed.model_preset = preset;
        typed.model_is_preset_id = true;
        json["model"] = preset;
    }
    typed.fields = values;

    bool check_rules = in.ConsumeBool();
    auto from_fields = codec::scenario_from_fields(typed, {}, check_rules);
    auto from_json = codec::scenario_from_json(json, {}, check_rules);
    FUZZ_CHECK(issues_and_notes(from_fields) == issues_and_notes(from_json),
               "typed and JSON decoding differ: " + issues_and_notes(from_fields) + " vs " + issues_and_notes(from_json) +
                   " for " + json.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace));
    std::string field;
    FUZZ_CHECK(fuzz::same_scenario(from_fields.scenario, from_json.scenario, &field),
               "typed and JSON decoding give different " + field + " for " + json.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace));
    fuzz::check_issues(from_fields.issues);
    fuzz::check_notes(from_fields.notes);
    return 0;
}
