// The interface of the vramcalc JS API's WebAssembly module, through Embind. Only vramcalc.mjs
// calls it (Module.estimateFields, Module.values, ...; see EMSCRIPTEN_BINDINGS at the end).
//
// Nothing crosses as JSON on the hot path and no C++ exception leaves the module: the scenario
// crosses as numbers in field order (and UTF-8 text) in buffers that vramcalc.mjs fills through
// typed memory views, the estimate comes back as numbers in output order in one array it reads
// through a view; problems come back as Issue records (value_object) and status values (enum_).
// The rarer, larger results (plan, imports, decodeLink, the constant tables) cross as JSON text.
// The plain C exports of the previous interface stay as an internal fallback on the same
// implementation (bench/js/api-bench.mjs times both in one run).
//
// A scenario argument is decoded first, by one of two calls, into the scenario the next calls
// use (estimate, validate, plan, encodeLink, an import's base):
// - scenarioFields / estimateFields (the fast path): vramcalc.mjs writes the scenario's values,
//   already of their fields' types, into the field input buffers (numbers as doubles, text as
//   UTF-8) and the codec decodes them with the same steps and rules as JSON
//   (codec::scenario_from_fields);
// - scenarioJson: the scenario as JSON text (in the input buffer), for everything the fast path
//   leaves out (unknown keys, values of the wrong type), so every message is the JSON codec's.
//
// estimate() is the hot path (docs pages compute tables of scenarios): every scalar output
// (output-table order) and every field of the estimated scenario (field-table order) as doubles in
// one array, and every text value (text outputs, text fields, notes, warnings) as UTF-8, one after
// another, with their lengths in that array (see TextPart). vramcalc.mjs builds the same object
// the JSON would give (tests/js/cli-parity.test.mjs compares it with the CLI).
// No formula lives here: everything is core (validate/estimate) or codec (JSON, links).
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "codec/codec.hpp"
#include "codec/import_deepspeed.hpp"
#include "codec/import_hf.hpp"
#include "codec/import_gguf.hpp"
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

// How each composite output present in every estimate crosses (the tables name it for
// vramcalc.mjs): as numbers, as records of two texts (the keys codec::composite_to_json gives
// them), as an empty list (errors: a valid estimate has none), as one JSON text, or lazily: a
// count only (0: the composite is empty; 1: vramcalc.mjs makes the result's property a getter
// that asks composite_json when first read), as the fixes take a few dozen more estimates when
// the scenario does not fit.
const char* crossing(vramcalc::CompositeKind kind) {
    switch (kind) {
        case vramcalc::CompositeKind::scenario: return "scenario";
        case vramcalc::CompositeKind::memory_timeline: return "memory_timeline";
        case vramcalc::CompositeKind::warnings: return "records id message";
        case vramcalc::CompositeKind::notes: return "records field message";
        case vramcalc::CompositeKind::errors: return "empty";
        case vramcalc::CompositeKind::explain: return "json";
        case vramcalc::CompositeKind::fixes: return "lazy";
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

// What an estimate left: its numbers and text part (valid), or the issues that make it invalid.
enum class EstimateStatus { invalid = 0, valid = 1, valid_text_as_json = 2 };
std::vector<vramcalc::ValidationIssue> estimate_errors;  // status invalid
std::string estimate_json;                               // status valid_text_as_json

// Room for the numbers of an estimate and its text part's layout, reserved once so that the
// array never moves (the JS side keeps a view on it): a text part with more texts crosses as JSON.
std::size_t values_capacity() {
    std::size_t numbers = vramcalc::outputs().size() + vramcalc::scenario_fields().size() +
                          std::size(vramcalc::all_step_phases) * codec::memory_timeline_components().size();
    return numbers + 3 + vramcalc::composite_outputs().size() + 4096;
}

// The JSON form of an estimate's text part (status valid_text_as_json): {"text": [text outputs],
// "field_text": [text fields], <composite path>: <value>, ... (those that cross as numbers excepted)}.
std::string text_part_json(const codec::DecodeResult& decoded, const vramcalc::Evaluation& ev) {
    json rest = json::object();
    json& text = rest["text"] = json::array();
    json& field_text = rest["field_text"] = json::array();
    for (const auto& o : vramcalc::outputs())
        if (o.kind == vramcalc::ValueKind::text) text.push_back(o.text ? o.text(ev.estimate) : "");
    for (const auto& f : vramcalc::scenario_fields())
        if (f.kind == vramcalc::FieldKind::text) field_text.push_back(f.get_text(decoded.scenario));
    for (const auto& c : vramcalc::composite_outputs())
        if (c.always && c.kind != vramcalc::CompositeKind::scenario && c.kind != vramcalc::CompositeKind::memory_timeline &&
            std::string_view(crossing(c.kind)) != "lazy")
            rest[c.path] = codec::composite_to_json(c, decoded.scenario, ev, decoded.notes);
    return rest.dump(-1, ' ', false, json::error_handler_t::replace);
}

// The texts of the composites that cross as records or JSON, into the text part.
void add_composite_texts(const codec::DecodeResult& decoded, const vramcalc::Evaluation& ev) {
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
        } else if (c.kind == vramcalc::CompositeKind::fixes) {  // lazy: empty when it fits
            text_part.counts.push_back(ev.estimate.fits ? 0.0 : 1.0);
        } else if (std::string_view(crossing(c.kind)) == "json") {
            text_part.add(codec::composite_to_json(c, decoded.scenario, ev, decoded.notes)
                              .dump(-1, ' ', false, json::error_handler_t::replace));
        }
    }
}

// Estimates the decoded scenario argument; the rules are checked here, by vramcalc::evaluate, so
// vramcalc.mjs decodes the argument without them and they run once.
// valid: values holds the outputs (output-table order), the fields of the estimated scenario
// (field-table order; booleans 0/1, choices as index, text fields 0), the memory timeline (each
// step phase in order, its components in codec::memory_timeline_components order), then the text
// part's layout (TextPart): 1 if vramcalc.mjs read the same texts last time (else 0), the texts'
// size in bytes, their number, the counts (records of a list, or 0/1 for a lazy composite), the texts' lengths; the texts in text_part.bytes:
// the text outputs, the text fields, then those of the composites that cross as records (two
// texts per record) or as JSON (one text), in composite-table order (see crossing()).
// valid_text_as_json: the numbers as for valid, the text part in estimate_json (a text that is
// not UTF-8, never expected, or more texts than values has room for).
// invalid: estimate_errors.
EstimateStatus run_estimate() {
    try {
        const codec::DecodeResult& decoded = current;
        vramcalc::Evaluation ev;
        if (decoded.ok()) {
            ev = vramcalc::evaluate(decoded.scenario);
            codec::tidy_issues(ev.errors, "json");  // as the decoders list the rules' issues
        }
        if (!decoded.ok() || !ev.ok()) {
            estimate_errors = decoded.ok() ? ev.errors : decoded.issues;
            return EstimateStatus::invalid;
        }
        if (values.capacity() == 0) values.reserve(values_capacity());
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
        add_composite_texts(decoded, ev);
        std::size_t layout = 3 + text_part.counts.size() + text_part.lengths.size();
        if (text_part.valid && values.size() + layout <= values.capacity()) {
            values.push_back(text_part.same() ? 1.0 : 0.0);
            text_part.read = true;
            values.push_back(double(text_part.bytes.size()));
            values.push_back(double(text_part.lengths.size()));
            values.insert(values.end(), text_part.counts.begin(), text_part.counts.end());
            values.insert(values.end(), text_part.lengths.begin(), text_part.lengths.end());
            return EstimateStatus::valid;
        }
        text_part.read = false;
        estimate_json = text_part_json(decoded, ev);
        return EstimateStatus::valid_text_as_json;
    } catch (...) {
        estimate_errors = {{"scenario", internal_error("estimate")}};
        return EstimateStatus::invalid;
    }
}

void load_fields(std::size_t count, bool check_rules) {
    try {
        current = decode_fields(count, check_rules);
    } catch (...) {
        current = codec::DecodeResult{vramcalc::Scenario{}, {{"scenario", internal_error("decoding the scenario")}}, {}};
    }
}

void load_json(std::size_t length, bool check_rules) {
    try {
        current = decode(argument(length), check_rules);
    } catch (...) {
        current = codec::DecodeResult{vramcalc::Scenario{}, {{"scenario", internal_error("decoding the scenario")}}, {}};
    }
}

char* input_buffer(std::size_t bytes) {
    if (input.size() < bytes) input.resize(bytes);
    return input.data();
}

// The layout planner for the decoded scenario argument; the input buffer holds the options JSON
// text (options_length bytes). {"plans": [...], "searched", "feasible", ..., "errors": []} or
// {"errors": [...]} (scenario or options problems).
json plan_json(std::size_t options_length) {
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
        if (!issues.empty()) return json{{"errors", codec::issues_to_json(issues)}};
        return codec::plan_to_json(vramcalc::plan(decoded.scenario, options));
    } catch (...) {
        return json{{"errors", issue_list("scenario", internal_error("plan"))}};
    }
}

// A composite that crosses lazily (see crossing()), of the decoded scenario argument:
// {"value": <the composite>, "errors": []} or {"errors": [...]} when the scenario is invalid.
json composite_json(std::string_view path) {
    try {
        const codec::DecodeResult& decoded = current;
        if (!decoded.ok()) return json{{"errors", codec::issues_to_json(decoded.issues)}};
        vramcalc::Evaluation ev = vramcalc::evaluate(decoded.scenario);
        if (!ev.ok()) return json{{"errors", codec::issues_to_json(ev.errors)}};
        for (const auto& c : vramcalc::composite_outputs())
            if (c.path == path)
                return json{{"value", codec::composite_to_json(c, decoded.scenario, ev, decoded.notes)}, {"errors", json::array()}};
        return json{{"errors", issue_list("scenario", "internal error: no composite output " + std::string(path))}};
    } catch (...) {
        return json{{"errors", issue_list("scenario", internal_error("composite"))}};
    }
}

// The link of the decoded scenario argument, or the issues that keep it from having one.
struct EncodedLink {
    std::string link;
    std::vector<vramcalc::ValidationIssue> errors;
};
EncodedLink encoded_link() {
    try {
        const codec::DecodeResult& decoded = current;
        if (!decoded.ok()) return {{}, decoded.issues};
        return {codec::encode_link(decoded.scenario), {}};
    } catch (...) {
        return {{}, {{"scenario", internal_error("encodeLink")}}};
    }
}

// {"scenario": {...}, "issues": [...], "notes": [...]}: lenient, the scenario is always valid.
json decoded_link_json(std::size_t length) {
    try {
        auto decoded = codec::decode_link(std::string(argument(length)));
        return json{{"scenario", codec::scenario_to_json(decoded.scenario)},
                {"issues", codec::issues_to_json(decoded.issues)},
                {"notes", codec::notes_to_json(decoded.notes)}};
    } catch (...) {
        return json{{"scenario", codec::scenario_to_json(vramcalc::Scenario{})},
                {"issues", issue_list("link", "internal error; using the defaults")},
                {"notes", json::array()}};
    }
}

// Which config an import reads.
enum class ImportFormat { hugging_face = 0, deepspeed = 1 };

// A Hugging Face config.json or a DeepSpeed config applied onto a base scenario: the decoded
// scenario argument (with_base; decoded without the rules, as the import replaces what may break
// them: the model) or the defaults. The input buffer holds the config text (config_length bytes).
// {"scenario", "family", "notes", "unmapped_keys", "ignored_keys", "issues": []} or
// {"issues": [...]} naming the config's keys (or "base." fields).
json import_json(std::size_t config_length, bool with_base, ImportFormat format) {
    try {
        vramcalc::Scenario base;
        if (with_base) {
            const codec::DecodeResult& decoded = current;
            if (!decoded.ok()) {
                json issues = json::array();
                for (const auto& i : decoded.issues) issues.push_back({{"field", "base." + i.field}, {"message", i.message}});
                return json{{"issues", issues}};
            }
            base = decoded.scenario;
        }
        std::string config(argument(config_length));
        auto r = format == ImportFormat::deepspeed ? codec::import_deepspeed_config(config, base)
                                                   : codec::import_hf_config(config, base);
        if (!r.ok()) return json{{"issues", codec::issues_to_json(r.issues)}};
        return json{{"scenario", codec::scenario_to_json(r.scenario)},
                {"family", r.family},
                {"notes", r.notes},
                {"unmapped_keys", r.unmapped_keys},
                {"ignored_keys", r.ignored_keys},
                {"issues", json::array()}};
    } catch (...) {
        return json{{"issues", issue_list("config", internal_error("import"))}};
    }
}

// The inference planner (planInference) for the decoded scenario argument, options as for plan_json:
// {"plans": [...], "searched", "fitting", "meeting", ..., "errors": []} or {"errors": [...]}.
json plan_inference_json(std::size_t options_length) {
    try {
        std::vector<vramcalc::ValidationIssue> issues = current.issues;
        json options_json;
        std::string problem;
        vramcalc::ServingPlanOptions options;
        if (!codec::parse_json_text(argument(options_length), options_json, problem)) issues.push_back({"options", problem});
        else options = codec::serving_plan_options_from_json(options_json, issues);
        if (issues.empty()) issues = vramcalc::serving_plan_issues(current.scenario, options);
        if (!issues.empty()) return json{{"errors", codec::issues_to_json(issues)}};
        return codec::serving_plan_to_json(vramcalc::serving_plan(current.scenario, options));
    } catch (...) {
        return json{{"errors", issue_list("scenario", internal_error("planInference"))}};
    }
}

// The first bytes of a .gguf file (the input buffer, length bytes) onto the decoded scenario
// (with_base) or the defaults: {"scenario", "family", "notes", "gguf": {version, tensors,
// header_bytes, parameters, tensor_bytes, types}, "issues": []} or {"issues", "incomplete"}.
json import_gguf_json(std::size_t length, bool with_base) {
    try {
        vramcalc::Scenario base = with_base ? current.scenario : vramcalc::Scenario{};
        auto bytes = argument(length);
        auto r = codec::import_gguf({reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()}, base);
        if (!r.result.ok()) return json{{"issues", codec::issues_to_json(r.result.issues)}, {"incomplete", r.incomplete}};
        json types = json::array();
        for (const auto& t : r.types)
            types.push_back({{"type", t.type}, {"tensors", t.tensors}, {"elements", t.elements}, {"bytes", t.bytes}});
        json gguf = {{"version", r.version}, {"tensors", r.tensor_count}, {"header_bytes", r.header_bytes},
                     {"parameters", r.parameters}, {"tensor_bytes", r.tensor_bytes}, {"types", types}};
        return json{{"scenario", codec::scenario_to_json(r.result.scenario)}, {"family", r.result.family},
                    {"notes", r.result.notes}, {"gguf", gguf}, {"issues", json::array()}};
    } catch (...) {
        return json{{"issues", issue_list("gguf", internal_error("importGguf"))}};
    }
}

// The constant tables, read once by vramcalc.mjs:
// {"version", "limits", "default_scenario", "model_presets", "gpu_presets", "fields", "outputs", ...}.
json tables_json() {
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
    json out = {{"version", VRAMCALC_VERSION},
            {"field_input", field_input},
            {"limits", limits},
            {"default_scenario", defaults},
            {"model_presets", models},
            {"gpu_presets", gpus},
            {"fields", fields},
            {"outputs", outputs},
            {"memory_timeline", {{"phases", phases}, {"components", components}}},
            {"composites", composites}};
    return out;
}

// Issue texts may quote hostile input cut at a byte boundary: invalid UTF-8 is replaced as the
// JSON text replaces it (nlohmann's error_handler_t::replace), so both boundaries give one text.
std::string well_formed(const std::string& text) {
    if (TextPart::utf16_length(text) >= 0) return text;
    return json::parse(json(text).dump(-1, ' ', false, json::error_handler_t::replace)).get<std::string>();
}

}  // namespace

// ── The Embind interface (what vramcalc.mjs calls) ──
// The scenario crosses as numbers in field order (and UTF-8 text) in buffers the JS side sees
// through typed memory views; the estimate comes back the same way (values, text bytes). No C++
// exception crosses: problems come back as Issue records or status values.
namespace {
namespace em = emscripten;

em::val issues_val(const std::vector<vramcalc::ValidationIssue>& issues) {
    em::val list = em::val::array();
    try {
        for (std::size_t i = 0; i < issues.size(); ++i)
            list.set(i, em::val(vramcalc::ValidationIssue{well_formed(issues[i].field), well_formed(issues[i].message)}));
    } catch (...) {  // nothing thrown crosses the boundary
        list.set(list["length"], em::val(vramcalc::ValidationIssue{"scenario", internal_error("issues")}));
    }
    return list;
}
// JSON text as UTF-8 bytes in the module's memory (valid until the next call), which vramcalc.mjs
// decodes with one TextDecoder call (faster than Embind's std::string, which copies it twice).
em::val json_view(const json& j) {
    output = j.dump(-1, ' ', false, json::error_handler_t::replace);
    return em::val(em::typed_memory_view(output.size(), reinterpret_cast<const std::uint8_t*>(output.data())));
}

em::val field_numbers_view() { return em::val(em::typed_memory_view(field_input().numbers.size(), field_input().numbers.data())); }
em::val field_list_view() { return em::val(em::typed_memory_view(field_input().list.size(), field_input().list.data())); }
em::val field_text_view() {
    auto& text = field_input().text;
    return em::val(em::typed_memory_view(text.size(), reinterpret_cast<std::uint8_t*>(text.data())));
}
em::val input_view(std::size_t bytes) { return em::val(em::typed_memory_view(bytes, reinterpret_cast<std::uint8_t*>(input_buffer(bytes)))); }
void scenario_fields(std::size_t count, bool check_rules) { load_fields(count, check_rules); }
void scenario_json(std::size_t length, bool check_rules) { load_json(length, check_rules); }
// The hot path in one call: the field input decoded without the rules, then estimated.
EstimateStatus estimate_fields(std::size_t count) {
    load_fields(count, false);
    return run_estimate();
}
EstimateStatus estimate_current() { return run_estimate(); }
// All of the values array (its capacity: it never moves, see values_capacity()).
em::val values_view() {
    if (values.capacity() == 0) values.reserve(values_capacity());
    return em::val(em::typed_memory_view(values.capacity(), values.data()));
}
em::val estimate_text_view() {
    return em::val(em::typed_memory_view(text_part.bytes.size(), reinterpret_cast<const std::uint8_t*>(text_part.bytes.data())));
}
em::val estimate_text_json() {
    return em::val(em::typed_memory_view(estimate_json.size(), reinterpret_cast<const std::uint8_t*>(estimate_json.data())));
}
em::val estimate_issues() { return issues_val(estimate_errors); }
em::val validate_current() { return issues_val(current.issues); }
em::val plan_text(std::size_t options_length) { return json_view(plan_json(options_length)); }
em::val composite_text(std::string path) { return json_view(composite_json(path)); }
em::val encode_link_current() {
    EncodedLink r = encoded_link();
    em::val out = em::val::object();
    out.set("link", r.link);
    out.set("errors", issues_val(r.errors));
    return out;
}
em::val decode_link_text(std::size_t length) { return json_view(decoded_link_json(length)); }
em::val import_text(std::size_t config_length, bool with_base, ImportFormat format) {
    return json_view(import_json(config_length, with_base, format));
}
em::val tables_text() { return json_view(tables_json()); }
em::val plan_inference_text(std::size_t options_length) { return json_view(plan_inference_json(options_length)); }
em::val import_gguf_text(std::size_t length, bool with_base) { return json_view(import_gguf_json(length, with_base)); }
}  // namespace

EMSCRIPTEN_BINDINGS(vramcalc) {
    em::enum_<EstimateStatus>("EstimateStatus")
        .value("invalid", EstimateStatus::invalid)
        .value("valid", EstimateStatus::valid)
        .value("valid_text_as_json", EstimateStatus::valid_text_as_json);
    em::enum_<ImportFormat>("ImportFormat")
        .value("hugging_face", ImportFormat::hugging_face)
        .value("deepspeed", ImportFormat::deepspeed);
    em::value_object<vramcalc::ValidationIssue>("Issue")
        .field("field", &vramcalc::ValidationIssue::field)
        .field("message", &vramcalc::ValidationIssue::message);
    em::function("fieldNumbers", &field_numbers_view);
    em::function("fieldList", &field_list_view);
    em::function("fieldText", &field_text_view);
    em::function("input", &input_view);
    em::function("scenarioFields", &scenario_fields);
    em::function("scenarioJson", &scenario_json);
    em::function("estimateFields", &estimate_fields);
    em::function("estimate", &estimate_current);
    em::function("values", &values_view);
    em::function("estimateText", &estimate_text_view);
    em::function("estimateTextJson", &estimate_text_json);
    em::function("estimateIssues", &estimate_issues);
    em::function("validate", &validate_current);
    em::function("plan", &plan_text);
    em::function("composite", &composite_text);
    em::function("encodeLink", &encode_link_current);
    em::function("decodeLink", &decode_link_text);
    em::function("importConfig", &import_text);
    em::function("tables", &tables_text);
    em::function("planInference", &plan_inference_text);
    em::function("importGguf", &import_gguf_text);
}

// ── The plain C exports: today's interface before Embind, kept as the internal fallback that
// bench/js/api-bench.mjs compares the Embind path with (vramcalc.mjs's cExports option). Same
// implementation; pointers into the module's memory, text as NUL-terminated UTF-8 JSON. ──
extern "C" {
EMSCRIPTEN_KEEPALIVE double* vramcalc_field_numbers() { return field_input().numbers.data(); }
EMSCRIPTEN_KEEPALIVE std::int32_t* vramcalc_field_list() { return field_input().list.data(); }
EMSCRIPTEN_KEEPALIVE char* vramcalc_field_text() { return field_input().text.data(); }
EMSCRIPTEN_KEEPALIVE void vramcalc_scenario_fields(std::size_t count, int check_rules) { load_fields(count, check_rules != 0); }
EMSCRIPTEN_KEEPALIVE void vramcalc_scenario_json(std::size_t length, int check_rules) { load_json(length, check_rules != 0); }
EMSCRIPTEN_KEEPALIVE char* vramcalc_input(std::size_t bytes) { return input_buffer(bytes); }
EMSCRIPTEN_KEEPALIVE const double* vramcalc_values() { return values.data(); }
const char* text_result = "";
// The text part's bytes (1), its JSON (2) or {"errors": [...]} (0) of the last vramcalc_estimate.
EMSCRIPTEN_KEEPALIVE const char* vramcalc_text() { return text_result; }
EMSCRIPTEN_KEEPALIVE int vramcalc_estimate() {
    EstimateStatus status = run_estimate();
    if (status == EstimateStatus::valid) text_result = text_part.bytes.c_str();
    else if (status == EstimateStatus::valid_text_as_json) text_result = estimate_json.c_str();
    else text_result = put({{"errors", codec::issues_to_json(estimate_errors)}});
    return int(status);
}
EMSCRIPTEN_KEEPALIVE const char* vramcalc_validate() { return put(codec::issues_to_json(current.issues)); }
EMSCRIPTEN_KEEPALIVE const char* vramcalc_plan(std::size_t options_length) { return put(plan_json(options_length)); }
// The input buffer holds the composite's path (path_length bytes).
EMSCRIPTEN_KEEPALIVE const char* vramcalc_composite(std::size_t path_length) { return put(composite_json(argument(path_length))); }
EMSCRIPTEN_KEEPALIVE const char* vramcalc_encode_link() {
    EncodedLink r = encoded_link();
    if (!r.errors.empty()) return put({{"errors", codec::issues_to_json(r.errors)}});
    return put({{"link", r.link}, {"errors", json::array()}});
}
EMSCRIPTEN_KEEPALIVE const char* vramcalc_decode_link(std::size_t length) { return put(decoded_link_json(length)); }
EMSCRIPTEN_KEEPALIVE const char* vramcalc_import(std::size_t config_length, int with_base, int deepspeed) {
    return put(import_json(config_length, with_base != 0, deepspeed ? ImportFormat::deepspeed : ImportFormat::hugging_face));
}
EMSCRIPTEN_KEEPALIVE const char* vramcalc_tables() { return put(tables_json()); }
EMSCRIPTEN_KEEPALIVE const char* vramcalc_plan_inference(std::size_t options_length) {
    return put(plan_inference_json(options_length));
}
EMSCRIPTEN_KEEPALIVE const char* vramcalc_import_gguf(std::size_t length, int with_base) {
    return put(import_gguf_json(length, with_base != 0));
}
}  // extern "C"
