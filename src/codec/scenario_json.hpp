// Scenario ⇄ JSON, and the estimate as JSON (what the CLI's --json and the JS API return).
// Decoders never throw and never crash: every problem becomes a ValidationIssue naming the field.
// It includes nlohmann-json (as plan_json.hpp and the imports do); the page includes link.hpp instead.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "codec/decoded.hpp"
#include "core/explain.hpp"
#include "core/fields.hpp"
#include "core/results.hpp"
#include "core/outputs.hpp"

namespace vramcalc::codec {

// ── Scenario (strict: unknown keys, wrong types and rule violations are all reported) ──
// Shape: {"model": {...}, "training": {...}, "parallel": {...}, "hardware": {...}}, field names as
// in fields.hpp. "model.preset" (or "model": "<preset id>") starts from a model preset; a known
// "hardware.gpu" starts from that GPU preset; explicit fields override either. A model preset
// lowers training.seq_len to the positions it has unless the input sets seq_len (a note says so).
// With check_rules = false only decoding problems are reported (callers that apply more edits
// validate once at the end).
DecodeResult scenario_from_json(const nlohmann::json& json, const Scenario& base = {}, bool check_rules = true);
DecodeResult scenario_from_json_text(std::string_view text, const Scenario& base = {}, bool check_rules = true);
nlohmann::json scenario_to_json(const Scenario& scenario);

// The same decoding for a scenario whose values are already of their fields' types (the JS API's
// fast path: no JSON text, no DOM). Gives what scenario_from_json gives for the JSON object with
// the same keys and values: same scenario, notes and issues, in the same order.
struct FieldValue {
    const FieldSpec* field;    // from scenario_fields()
    double number = 0;         // integers and numbers; booleans 0/1; a choice's index
    std::string_view text;     // text fields
};
struct FieldValues {
    std::optional<std::string_view> model_preset;  // model.preset, or "model": "<id>"
    bool model_is_preset_id = false;               // the "model": "<id>" form (no other model field)
    std::span<const FieldValue> fields;            // any order, each field at most once
};
DecodeResult scenario_from_fields(const FieldValues& input, const Scenario& base = {}, bool check_rules = true);

// ── Estimate ──
// Every scalar output of core/outputs.hpp at its JSON path, plus warnings and errors: []. Byte
// counts and FLOPs are numbers.
nlohmann::json estimate_to_json(const Estimate& estimate);
// The outputs under one JSON object path ("performance", "memory_per_gpu_bytes") as that object.
nlohmann::json outputs_to_json(const Estimate& estimate, std::string_view object_path);
// The estimate plus the composite outputs (scenario, warnings, notes, errors: [], explain when
// asked), or {"errors": [...]} when invalid. What the CLI's --json and the JS API's estimate() return.
nlohmann::json evaluation_to_json(const Scenario& scenario, const Evaluation& evaluation,
                                  const std::vector<Note>& notes = {}, bool with_explain = false);
// The memory timeline as JSON shows it: one object per step phase (all_step_phases order),
// {"phase": step_phase_id, <key>: bytes for each component below}: the core's memory_components
// and the phase's "total". memory_timeline_to_json and the JS API's numeric path (src/bindings)
// both read this table.
struct PhaseComponent {
    const char* key;
    double PhaseMemory::*member;  // nullptr: the phase's total
    double bytes(const PhaseMemory& p) const { return member ? p.*member : p.total(); }
};
std::span<const PhaseComponent> memory_timeline_components();

// One composite output of a valid evaluation (what evaluation_to_json puts at composite.path).
// "fixes": the ways to fit of a valid estimate that does not fit (core/fixes.hpp), [] otherwise.
nlohmann::json fixes_to_json(const Scenario& scenario, const Evaluation& evaluation);
nlohmann::json composite_to_json(const CompositeOutputSpec& composite, const Scenario& scenario,
                                 const Evaluation& evaluation, const std::vector<Note>& notes);
nlohmann::json issues_to_json(const std::vector<ValidationIssue>& issues);
nlohmann::json notes_to_json(const std::vector<Note>& notes);
// [{id, label, formula, source, value, unit, inputs: [{symbol, value, unit}]}]
nlohmann::json explain_to_json(const std::vector<ExplainTerm>& terms);

// ── Parsing helpers shared with the config imports ──
// Parses JSON without exceptions. On a syntax error returns false and sets `problem` to
// "is not valid JSON (syntax error at byte N)" ("… (text after the JSON value at byte N)" when a
// complete value is followed by more than whitespace). A key given more than once in one object (where
// the JSON library would keep the last silently) is listed in `duplicate_keys` by its path
// ("model.layers"; "[]" for array elements), once; the caller reports it as an error. Without
// `duplicate_keys` (text that cannot repeat a key, e.g. written from a JS object) nothing is
// looked for and the parse is faster. Text nested deeper than max_json_depth is refused before it
// is parsed ("is nested deeper than 64 levels …"): the cost of a parse stays linear in the text.
inline constexpr int max_json_depth = 64;  // objects and arrays inside each other; real configs need < 10
bool parse_json_text(std::string_view text, nlohmann::json& out, std::string& problem,
                     std::vector<std::string>* duplicate_keys = nullptr);
// The issue for each duplicate key: {path, "is given more than once (duplicate JSON key)"}.
void report_duplicate_keys(const std::vector<std::string>& paths, std::vector<ValidationIssue>& issues);
// One JSON object of at most max_import_bytes, without duplicate keys; on failure appends issues
// ("json": "is not valid JSON (syntax error at byte N)", "must be a JSON object"; a duplicate
// key's path) and returns false.
bool parse_json_object(std::string_view text, nlohmann::json& out, std::vector<ValidationIssue>& issues);
inline constexpr std::size_t max_import_bytes = 1 << 20;  // 1 MiB: real configs are a few KB
// "the text \"abc\"", "true", "an array", "12.5": how a JSON value is described in messages.
std::string describe_json(const nlohmann::json& value);
// "the text \"abc\"": how describe_json describes a string.
std::string describe_text(std::string_view text);

}  // namespace vramcalc::codec
