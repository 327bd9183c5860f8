// The C interface of the vramcalc JS API's WebAssembly module. Only vramcalc.mjs calls it.
//
// Text crosses as UTF-8 in the module's memory: vramcalc.mjs writes its argument into the buffer
// vramcalc_input() returns, calls a function with the byte count, and reads the NUL-terminated
// UTF-8 result (valid until the next call). Plain exported functions, no Embind and no C++
// exception leaves the module.
//
// A scenario argument is decoded first, by one of two calls, into the scenario the next calls
// use (estimate, validate, plan, encodeLink, an import's base):
// - vramcalc_scenario_fields (the fast path): vramcalc.mjs writes the scenario's values, already of
//   their fields' types, into the field input buffers (numbers as doubles, text as UTF-8) and the
//   codec decodes them with the same steps and rules as JSON (codec::scenario_from_fields);
// - vramcalc_scenario_json: the scenario as JSON text, for everything the fast path leaves out
//   (unknown keys, values of the wrong type), so every message is the JSON codec's.
//
// estimate() is the hot path (docs pages compute tables of scenarios): instead of a JSON text of
// the whole estimate, it leaves every scalar output (output-table order) and every field of the
// estimated scenario (field-table order) as doubles in one array that vramcalc.mjs reads in place,
// and every text value (text outputs, text fields, notes, warnings) as UTF-8, one after another,
// with their lengths in that array (see TextPart). vramcalc.mjs builds the same object the JSON
// would give (tests/js/cli-parity.test.mjs compares it with the CLI).
// No formula lives here: everything is core (validate/estimate) or codec (JSON, links).
#include <emscripten/emscripten.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include "codec/codec.hpp"
#include "codec/import_deepspeed.hpp"
#include "codec/import_gguf.hpp"
#include "codec/import_hf.hpp"
#include "codec/plan_json.hpp"
#include "codec/serving_plan_json.hpp"
#include "core/estimate.hpp"
#include "core/fields.hpp"
#include "core/outputs.hpp"
#include "core/model/presets.hpp"
#include "core/text.hpp"

#ifndef VRAMCALC_VERSION
#define VRAMCALC_VERSION "0.0.0"
#endif

namespace {

using nlohmann::json;
namespace codec = vramcalc::codec;

std::vector<char> input;    // the argument, written by vramcalc.mjs
std::string output;         // the last text result
std::vector<double> values;  // estimate: outputs, then scenario fields
codec::DecodeResult current;  // the scenario argument, decoded

// The fast path's buffers (vramcalc_field_*): allocated once, so their addresses never change.
// Entry i of the list names field i of the field table, field_count the model preset
// (model.preset) and field_count + 1 the "model": "<id>" form. numbers[i] holds the value of an
// entry; for text (text fields and the preset) its length in bytes, the text itself in its slot of
// the text buffer: slot k for the k-th text field of the table, the last slot for the preset.
constexpr std::size_t text_slot_bytes = 3 * 1024;  // 1,024 UTF-16 units as UTF-8; longer goes as JSON
struct FieldInput {
    std::size_t field_count = vramcalc::scenario_fields().size();
    std::vector<double> numbers = std::vector<double>(field_count + 2);
    std::vector<std::int32_t> list = std::vector<std::int32_t>(field_count + 2);
    std::vector<std::size_t> slot_of = std::vector<std::size_t>(field_count + 2);
    std::vector<char> text;
    std::vector<codec::FieldValue> values;  // reused
    FieldInput() {
        std::size_t slots = 0;
        for (std::size_t i = 0; i < field_count; ++i)
            if (vramcalc::scenario_fields()[i].kind == vramcalc::FieldKind::text) slot_of[i] = slots++;
        slot_of[field_count] = slot_of[field_count + 1] = slots++;
        text.resize(slots * text_slot_bytes);
        values.reserve(field_count);
    }
    std::string_view text_of(std::size_t entry) const {
        double length = numbers[entry];
        std::size_t bytes = length > 0 && length <= double(text_slot_bytes) ? std::size_t(length) : 0;
        return std::string_view(text.data() + slot_of[entry] * text_slot_bytes, bytes);
    }
};
FieldInput& field_input() {
    static FieldInput buffers;
    return buffers;
}

std::string_view argument(std::size_t length) {
    return std::string_view(input.data(), length <= input.size() ? length : input.size());
}

// Issue texts may quote hostile input cut at a byte boundary: never let invalid UTF-8 throw here.
const char* put(const json& j) {
    output = j.dump(-1, ' ', false, json::error_handler_t::replace);
    return output.c_str();
}

// The message of the exception being handled (called inside a catch block).
std::string internal_error(const char* where) {
    std::string what = std::string("internal error in ") + where;
    try {
        throw;
    } catch (const std::exception& e) {
        what += ": ";
        what += e.what();
    } catch (...) {
    }
    return what;
}

// The scenario argument as JSON text. vramcalc.mjs writes this text from a JS object, whose keys
// cannot repeat, so it is parsed without looking for duplicate keys (faster; same result).
codec::DecodeResult decode(std::string_view text, bool check_rules) {
    json j;
    std::string problem;
    if (!codec::parse_json_text(text, j, problem)) return codec::DecodeResult{vramcalc::Scenario{}, {{"json", problem}}, {}};
    return codec::scenario_from_json(j, {}, check_rules);
}

// The scenario argument as the first `count` entries of the field input.
codec::DecodeResult decode_fields(std::size_t count, bool check_rules) {
    FieldInput& in = field_input();
    const auto fields = vramcalc::scenario_fields();
    codec::FieldValues given;
    in.values.clear();
    for (std::size_t k = 0; k < count && k < in.list.size(); ++k) {
        std::size_t entry = std::size_t(in.list[k]);
        if (entry < in.field_count) {
            const vramcalc::FieldSpec& f = fields[entry];
            if (f.kind == vramcalc::FieldKind::text) in.values.push_back({&f, 0.0, in.text_of(entry)});
            else in.values.push_back({&f, in.numbers[entry], {}});
        } else if (entry <= in.field_count + 1) {
            given.model_preset = in.text_of(entry);
            given.model_is_preset_id = entry == in.field_count + 1;
        }
    }
    given.fields = in.values;
    return codec::scenario_from_fields(given, {}, check_rules);
}

json issue_list(const char* field, const std::string& message) {
    return json::array({{{"field", field}, {"message", message}}});
}

double field_value(const vramcalc::FieldSpec& f, const vramcalc::Scenario& sc) {
    switch (f.kind) {
        case vramcalc::FieldKind::integer: return double(static_cast<std::int64_t>(f.get(sc)));  // as the JSON
        case vramcalc::FieldKind::boolean: return f.get(sc) != 0.0 ? 1.0 : 0.0;
        case vramcalc::FieldKind::text: return 0.0;  // in the text list
        default: return f.get(sc);                   // numbers; choices as their index
    }
}

double output_value(const vramcalc::OutputSpec& o, const vramcalc::Estimate& e) {
    switch (o.kind) {
        case vramcalc::ValueKind::integer: return double(static_cast<std::int64_t>(o.value(e)));  // as the JSON
        case vramcalc::ValueKind::flag: return o.value(e) != 0.0 ? 1.0 : 0.0;
        case vramcalc::ValueKind::text: return 0.0;  // in the text list
        default: return o.value(e);
    }
}

// How each composite output present in every estimate crosses (vramcalc_tables names it for
// vramcalc.mjs): as numbers, as records of two texts (the keys codec::composite_to_json gives
// them), as an empty list (errors: a valid estimate has none) or as one JSON text.
const char* crossing(vramcalc::CompositeKind kind) {
    switch (kind) {
        case vramcalc::CompositeKind::scenario: return "scenario";
        case vramcalc::CompositeKind::memory_timeline: return "memory_timeline";
        case vramcalc::CompositeKind::warnings: return "records id message";
        case vramcalc::CompositeKind::notes: return "records field message";
        case vramcalc::CompositeKind::errors: return "empty";
        case vramcalc::CompositeKind::explain: return "json";
    }
    return "json";
}

// The text part of an estimate: every text value as UTF-8, one after another, and for each its
// length in UTF-16 code units (how JavaScript counts), so vramcalc.mjs decodes all of them with one
// call and cuts the string; the number of records of each composite that crosses as records.
// same() says that bytes and lengths are those vramcalc.mjs read last time (it then reuses the
// strings it made).
struct TextPart {
    std::string bytes, previous_bytes;
    std::vector<double> lengths, previous_lengths, counts;
    bool valid = true;  // every text is well-formed UTF-8 (else the text part crosses as JSON)
    bool read = false, previous_read = false;  // vramcalc.mjs read bytes and lengths

    void clear() {
        bytes.swap(previous_bytes);
        lengths.swap(previous_lengths);
        previous_read = read;
        read = false;
        bytes.clear();
        lengths.clear();
        counts.clear();
        valid = true;
    }
    void add(std::string_view text) {
        double units = utf16_length(text);
        if (units < 0) {
            valid = false;
            return;
        }
        bytes.append(text);
        lengths.push_back(units);
    }
    // A text the core returns as a constant (warnings, step phase ids): measured once.
    void add_constant(const char* text) {
        auto at = std::find_if(constants.begin(), constants.end(), [&](const Constant& c) { return c.text == text; });
        if (at == constants.end()) at = constants.insert(at, {text, text, utf16_length(text)});
        const auto& [address, view, units] = *at;
        if (units < 0) {
            valid = false;
            return;
        }
        bytes.append(view);
        lengths.push_back(units);
    }
    // UTF-16 code units of UTF-8 text, or -1 when it is not well-formed UTF-8.
    static double utf16_length(std::string_view text) {
        std::size_t units = 0;
        for (std::size_t i = 0; i < text.size();) {
            if (static_cast<unsigned char>(text[i]) < 0x80) {  // ASCII, most texts
                ++units;
                ++i;
                continue;
            }
            std::size_t n = vramcalc::utf8_sequence_length(text, i);
            if (n == 0) return -1;
            units += n == 4 ? 2 : 1;  // beyond U+FFFF: a surrogate pair
            i += n;
        }
        return double(units);
    }
    struct Constant {
        const char* text;
        std::string_view view;
        double units;
    };
    std::vector<Constant> constants;  // a few dozen at most: warnings, phase names
    bool same() const { return previous_read && bytes == previous_bytes && lengths == previous_lengths; }
};
TextPart text_part;

const char* kind_name(vramcalc::FieldKind kind) {
    switch (kind) {
        case vramcalc::FieldKind::integer: return "integer";
        case vramcalc::FieldKind::number: return "number";
        case vramcalc::FieldKind::boolean: return "boolean";
        case vramcalc::FieldKind::choice: return "choice";
        case vramcalc::FieldKind::text: return "text";
    }
    return "number";
}

const char* kind_name(vramcalc::ValueKind kind) {
    switch (kind) {
        case vramcalc::ValueKind::number: return "number";
        case vramcalc::ValueKind::integer: return "integer";
        case vramcalc::ValueKind::flag: return "flag";
        case vramcalc::ValueKind::text: return "text";
    }
    return "number";
}

}  // namespace

extern "C" {

// The field input buffers of vramcalc_scenario_fields (numbers, list, text): see FieldInput.
EMSCRIPTEN_KEEPALIVE double* vramcalc_field_numbers() { return field_input().numbers.data(); }
EMSCRIPTEN_KEEPALIVE std::int32_t* vramcalc_field_list() { return field_input().list.data(); }
EMSCRIPTEN_KEEPALIVE char* vramcalc_field_text() { return field_input().text.data(); }

// Decodes the scenario argument from the first `count` entries of the field input (check_rules
// 0: decoding problems only, as for an import's base).
EMSCRIPTEN_KEEPALIVE void vramcalc_scenario_fields(std::size_t count, int check_rules) {
    try {
        current = decode_fields(count, check_rules != 0);
    } catch (...) {
        current = codec::DecodeResult{vramcalc::Scenario{}, {{"scenario", internal_error("decoding the scenario")}}, {}};
    }
}

// Decodes the scenario argument from JSON text (length bytes of the input buffer).
EMSCRIPTEN_KEEPALIVE void vramcalc_scenario_json(std::size_t length, int check_rules) {
    try {
        current = decode(argument(length), check_rules != 0);
    } catch (...) {
        current = codec::DecodeResult{vramcalc::Scenario{}, {{"scenario", internal_error("decoding the scenario")}}, {}};
    }
}

// A buffer of at least `bytes` bytes for the next call's argument.
EMSCRIPTEN_KEEPALIVE char* vramcalc_input(std::size_t bytes) {
    if (input.size() < bytes) input.resize(bytes);
    return input.data();
}

// Where vramcalc_estimate left its numbers: outputs (output-table order), then the fields of the
// estimated scenario (field-table order; booleans 0/1, choices as index, text fields 0), then the
// memory timeline (each step phase in order, its components in codec::memory_timeline_components
// order), then the text part's layout (TextPart): 1 if vramcalc.mjs read the same texts last time
// (else 0), the texts' size in bytes, their number, the record counts, the texts' lengths.
EMSCRIPTEN_KEEPALIVE const double* vramcalc_values() { return values.data(); }

// The text result of vramcalc_estimate: the text part's bytes, or JSON text.
const char* text_result = "";
EMSCRIPTEN_KEEPALIVE const char* vramcalc_text() { return text_result; }

// Estimates the decoded scenario argument; the rules are checked here, by vramcalc::evaluate, so
// vramcalc.mjs decodes the argument without them (check_rules 0) and they run once.
// Returns 1 when valid: the numbers and the text part's layout are in vramcalc_values(), the
// texts in vramcalc_text(): the text outputs (table order), the text fields (table order), then
// those of the composites that cross as records (two texts per record) or as JSON (one text), in
// composite-table order (see crossing()).
// Returns 2 when valid but some text is not UTF-8 (never expected: the text rule and the decoders
// keep them valid): the numbers as for 1, vramcalc_text() is JSON: {"text": [text outputs],
// "field_text": [text fields], <composite path>: <value>, ... (those that cross as numbers excepted)}.
// Returns 0 when invalid: vramcalc_text() is {"errors": [...]}.
EMSCRIPTEN_KEEPALIVE int vramcalc_estimate() {
    try {
        const codec::DecodeResult& decoded = current;
        vramcalc::Evaluation ev;
        if (decoded.ok()) {
            ev = vramcalc::evaluate(decoded.scenario);
            codec::tidy_issues(ev.errors, "json");  // as the decoders list the rules' issues
        }
        if (!decoded.ok() || !ev.ok()) {
            text_result = put({{"errors", codec::issues_to_json(decoded.ok() ? ev.errors : decoded.issues)}});
            return 0;
        }
        values.clear();
        text_part.clear();
        for (const auto& o : vramcalc::outputs()) {
            values.push_back(output_value(o, ev.estimate));
            if (o.kind == vramcalc::ValueKind::text) text_part.add_constant(o.text ? o.text(ev.estimate) : "");
        }
        for (const auto& f : vramcalc::scenario_fields()) {
            values.push_back(field_value(f, decoded.scenario));
            if (f.kind == vramcalc::FieldKind::text) text_part.add(f.get_text(decoded.scenario));
        }
        for (vramcalc::StepPhase phase : vramcalc::all_step_phases)
            for (const auto& c : codec::memory_timeline_components())
                values.push_back(c.bytes(ev.estimate.memory_timeline.at(phase)));
        for (const auto& c : vramcalc::composite_outputs()) {
            if (!c.always) continue;
            if (c.kind == vramcalc::CompositeKind::notes) {
                text_part.counts.push_back(double(decoded.notes.size()));
                for (const auto& n : decoded.notes) {
                    text_part.add(n.field);
                    text_part.add(n.message);
                }
            } else if (c.kind == vramcalc::CompositeKind::warnings) {
                const vramcalc::Warnings& w = ev.estimate.warnings;
                text_part.counts.push_back(double(w.count));
                for (int i = 0; i < w.count; ++i) {
                    text_part.add_constant(vramcalc::warning_id(w.items[i]));
                    text_part.add_constant(vramcalc::warning_message(w.items[i]));
                }
            } else if (c.kind == vramcalc::CompositeKind::explain) {
                text_part.add(codec::composite_to_json(c, decoded.scenario, ev, decoded.notes)
                                  .dump(-1, ' ', false, json::error_handler_t::replace));
            }
        }
        if (text_part.valid) {
            values.push_back(text_part.same() ? 1.0 : 0.0);
            text_part.read = true;
            values.push_back(double(text_part.bytes.size()));
            values.push_back(double(text_part.lengths.size()));
            values.insert(values.end(), text_part.counts.begin(), text_part.counts.end());
            values.insert(values.end(), text_part.lengths.begin(), text_part.lengths.end());
            text_result = text_part.bytes.c_str();
            return 1;
        }
        json rest = json::object();
        json& text = rest["text"] = json::array();
        json& field_text = rest["field_text"] = json::array();
        for (const auto& o : vramcalc::outputs())
            if (o.kind == vramcalc::ValueKind::text) text.push_back(o.text ? o.text(ev.estimate) : "");
        for (const auto& f : vramcalc::scenario_fields())
            if (f.kind == vramcalc::FieldKind::text) field_text.push_back(f.get_text(decoded.scenario));
        for (const auto& c : vramcalc::composite_outputs())
            if (c.always && c.kind != vramcalc::CompositeKind::scenario && c.kind != vramcalc::CompositeKind::memory_timeline)
                rest[c.path] = codec::composite_to_json(c, decoded.scenario, ev, decoded.notes);
        text_part.read = false;
        text_result = put(rest);
        return 2;
    } catch (...) {
        text_result = put({{"errors", issue_list("scenario", internal_error("estimate"))}});
        return 0;
    }
}

// [{"field", "message"}, ...]: decoding problems, or the rules the scenario breaks.
EMSCRIPTEN_KEEPALIVE const char* vramcalc_validate() {
    try {
        return put(codec::issues_to_json(current.issues));
    } catch (...) {
        return put(issue_list("scenario", internal_error("validate")));
    }
}

// The layout planner for the decoded scenario argument; the input buffer holds the options JSON
// text (options_length bytes). {"plans": [...], "searched", "feasible", ..., "errors": []} or
// {"errors": [...]} (scenario or options problems).
EMSCRIPTEN_KEEPALIVE const char* vramcalc_plan(std::size_t options_length) {
    try {
        const codec::DecodeResult& decoded = current;
        std::vector<vramcalc::ValidationIssue> issues = decoded.issues;
        json options_json;
        std::string problem;
        vramcalc::PlanOptions options;
        if (!codec::parse_json_text(argument(options_length), options_json, problem))
            issues.push_back({"options", problem});
        else
            options = codec::plan_options_from_json(options_json, issues);
        // The planner's rules, as the CLI's --plan asks them (the scenario is decoded without validate()).
        if (issues.empty()) issues = vramcalc::plan_issues(decoded.scenario, options);
        if (!issues.empty()) return put({{"errors", codec::issues_to_json(issues)}});
        return put(codec::plan_to_json(vramcalc::plan(decoded.scenario, options)));
    } catch (...) {
        return put({{"errors", issue_list("scenario", internal_error("plan"))}});
    }
}

// The inference planner (planInference) for the decoded scenario argument, options as for vramcalc_plan:
// {"plans": [...], "searched", "fitting", "meeting", ..., "errors": []} or {"errors": [...]}.
EMSCRIPTEN_KEEPALIVE const char* vramcalc_plan_inference(std::size_t options_length) {
    try {
        std::vector<vramcalc::ValidationIssue> issues = current.issues;
        json options_json;
        std::string problem;
        vramcalc::ServingPlanOptions options;
        if (!codec::parse_json_text(argument(options_length), options_json, problem)) issues.push_back({"options", problem});
        else options = codec::serving_plan_options_from_json(options_json, issues);
        if (issues.empty()) issues = vramcalc::serving_plan_issues(current.scenario, options);
        if (!issues.empty()) return put({{"errors", codec::issues_to_json(issues)}});
        return put(codec::serving_plan_to_json(vramcalc::serving_plan(current.scenario, options)));
    } catch (...) {
        return put({{"errors", issue_list("scenario", internal_error("planInference"))}});
    }
}

// {"link": "v=2&...", "errors": []} or {"errors": [...]}.
EMSCRIPTEN_KEEPALIVE const char* vramcalc_encode_link() {
    try {
        const codec::DecodeResult& decoded = current;
        if (!decoded.ok()) return put({{"errors", codec::issues_to_json(decoded.issues)}});
        return put({{"link", codec::encode_link(decoded.scenario)}, {"errors", json::array()}});
    } catch (...) {
        return put({{"errors", issue_list("scenario", internal_error("encodeLink"))}});
    }
}

// {"scenario": {...}, "issues": [...], "notes": [...]}: lenient, the scenario is always valid.
EMSCRIPTEN_KEEPALIVE const char* vramcalc_decode_link(std::size_t length) {
    try {
        auto decoded = codec::decode_link(std::string(argument(length)));
        return put({{"scenario", codec::scenario_to_json(decoded.scenario)},
                    {"issues", codec::issues_to_json(decoded.issues)},
                    {"notes", codec::notes_to_json(decoded.notes)}});
    } catch (...) {
        return put({{"scenario", codec::scenario_to_json(vramcalc::Scenario{})},
                    {"issues", issue_list("link", "internal error; using the defaults")},
                    {"notes", json::array()}});
    }
}

// A Hugging Face config.json (deepspeed = 0) or a DeepSpeed config (1) applied onto a base
// scenario: the decoded scenario argument (with_base = 1; decoded without the rules, as the import
// replaces what may break them: the model) or the defaults. The input buffer holds the config
// text (config_length bytes). {"scenario", "family", "notes", "unmapped_keys", "ignored_keys",
// "issues": []} or {"issues": [...]} naming the config's keys (or "base." fields).
EMSCRIPTEN_KEEPALIVE const char* vramcalc_import(std::size_t config_length, int with_base, int deepspeed) {
    try {
        vramcalc::Scenario base;
        if (with_base) {
            const codec::DecodeResult& decoded = current;
            if (!decoded.ok()) {
                json issues = json::array();
                for (const auto& i : decoded.issues) issues.push_back({{"field", "base." + i.field}, {"message", i.message}});
                return put({{"issues", issues}});
            }
            base = decoded.scenario;
        }
        std::string config(argument(config_length));
        auto r = deepspeed ? codec::import_deepspeed_config(config, base) : codec::import_hf_config(config, base);
        if (!r.ok()) return put({{"issues", codec::issues_to_json(r.issues)}});
        return put({{"scenario", codec::scenario_to_json(r.scenario)},
                    {"family", r.family},
                    {"notes", r.notes},
                    {"unmapped_keys", r.unmapped_keys},
                    {"ignored_keys", r.ignored_keys},
                    {"issues", json::array()}});
    } catch (...) {
        return put({{"issues", issue_list("config", internal_error("import"))}});
    }
}

// The first bytes of a .gguf file (the input buffer, length bytes) onto the decoded scenario
// (with_base = 1) or the defaults: {"scenario", "family", "notes", "gguf": {version, tensors,
// header_bytes, parameters, tensor_bytes, types}, "issues": []} or {"issues", "incomplete"}.
EMSCRIPTEN_KEEPALIVE const char* vramcalc_import_gguf(std::size_t length, int with_base) {
    try {
        vramcalc::Scenario base = with_base ? current.scenario : vramcalc::Scenario{};
        auto bytes = argument(length);
        auto r = codec::import_gguf({reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()}, base);
        if (!r.result.ok()) return put({{"issues", codec::issues_to_json(r.result.issues)}, {"incomplete", r.incomplete}});
        json types = json::array();
        for (const auto& t : r.types)
            types.push_back({{"type", t.type}, {"tensors", t.tensors}, {"elements", t.elements}, {"bytes", t.bytes}});
        json gguf = {{"version", r.version}, {"tensors", r.tensor_count}, {"header_bytes", r.header_bytes},
                     {"parameters", r.parameters}, {"tensor_bytes", r.tensor_bytes}, {"types", types}};
        return put({{"scenario", codec::scenario_to_json(r.result.scenario)}, {"family", r.result.family},
                    {"notes", r.result.notes}, {"gguf", gguf}, {"issues", json::array()}});
    } catch (...) {
        return put({{"issues", issue_list("gguf", internal_error("importGguf"))}});
    }
}

// The constant tables, read once by vramcalc.mjs:
// {"version", "limits", "default_scenario", "model_presets", "gpu_presets", "fields", "outputs", ...}.
EMSCRIPTEN_KEEPALIVE const char* vramcalc_tables() {
    const json defaults = codec::scenario_to_json(vramcalc::Scenario{});
    json models = json::array();
    for (const auto& p : vramcalc::model_presets()) {
        vramcalc::Scenario sc;
        sc.model = p.model;
        json entry = {{"id", p.id}, {"name", p.model.name}, {"model", codec::scenario_to_json(sc)["model"]}};
        if (p.published_params > 0) entry["published_params"] = p.published_params;
        entry["source"] = p.source;
        models.push_back(std::move(entry));
    }
    json gpus = json::array();
    for (const auto& g : vramcalc::gpu_presets())
        gpus.push_back({{"id", g.id},
                        {"memory_gib", g.memory_gib},
                        {"peak_tflops", g.peak_tflops},
                        {"achieved_tflops", g.achieved_tflops},
                        {"price_per_gpu_hour", g.price_per_gpu_hour},
                        {"gpus_per_node", g.gpus_per_node},
                        {"intra_node_gbps", g.intra_node_gbps},
                        {"inter_node_gbps", g.inter_node_gbps},
                        {"memory_bandwidth_gbps", g.memory_bandwidth_gbps},
                        {"source", g.source},
                        {"interconnect_source", g.interconnect_source}});
    json fields = json::array();
    for (const auto& f : vramcalc::scenario_fields()) {
        std::string_view path = f.path;
        auto dot = path.find('.');
        json choices = json::array();
        for (const char* c : f.choices) choices.push_back(c);
        fields.push_back({{"path", f.path},
                          {"url_key", f.url_key},
                          {"label", f.label},
                          {"symbol", f.symbol},
                          {"unit", f.unit},
                          {"help", f.help},
                          {"kind", kind_name(f.kind)},
                          {"choices", choices},
                          {"ui_min", f.ui_min},
                          {"ui_max", f.ui_max},
                          {"zero_means", f.zero_means ? f.zero_means : ""},
                          {"default", dot == std::string_view::npos
                                          ? defaults[std::string(path)]
                                          : defaults[std::string(path.substr(0, dot))][std::string(path.substr(dot + 1))]}});
    }
    // How vramcalc.mjs reads vramcalc_estimate's result: output paths and kinds in table order,
    // the memory timeline's phases and components, and how each composite crosses.
    json outputs = json::array();
    for (const auto& o : vramcalc::outputs()) outputs.push_back({{"path", o.path}, {"kind", kind_name(o.kind)}});
    json phases = json::array(), components = json::array();
    for (vramcalc::StepPhase phase : vramcalc::all_step_phases) phases.push_back(vramcalc::step_phase_id(phase));
    for (const auto& c : codec::memory_timeline_components()) components.push_back(c.key);
    json composites = json::array();  // composite-table order
    for (const auto& c : vramcalc::composite_outputs())
        if (c.always) composites.push_back({{"path", c.path}, {"crossing", crossing(c.kind)}});
    // The field input of vramcalc_scenario_fields (see FieldInput).
    json field_input = {{"text_slot_bytes", text_slot_bytes},
                        {"model_preset", vramcalc::scenario_fields().size()},
                        {"model_preset_id", vramcalc::scenario_fields().size() + 1}};
    // The longest input the codec reads (vramcalc.mjs copies no more into this module's memory).
    json limits = {{"max_link_length", codec::max_link_length}, {"max_input_bytes", codec::max_import_bytes}};
    return put({{"version", VRAMCALC_VERSION},
                {"field_input", field_input},
                {"limits", limits},
                {"default_scenario", defaults},
                {"model_presets", models},
                {"gpu_presets", gpus},
                {"fields", fields},
                {"outputs", outputs},
                {"memory_timeline", {{"phases", phases}, {"components", components}}},
                {"composites", composites}});
}

}  // extern "C"
