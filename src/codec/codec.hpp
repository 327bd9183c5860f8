// Scenario ⇄ JSON and Scenario ⇄ link fragment, and Estimate → JSON.
// Decoders never throw and never crash: every problem becomes a ValidationIssue naming the field.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/estimate.hpp"
#include "core/explain.hpp"
#include "core/fields.hpp"

namespace vramcalc::codec {

struct DecodeResult {
    Scenario scenario;
    std::vector<ValidationIssue> issues;  // decoding problems first, then validation rules
    std::vector<Note> notes;              // values changed besides what the input names (not problems)
    bool ok() const { return issues.empty(); }
};

// ── JSON (strict: unknown keys, wrong types and rule violations are all reported) ──
// Shape: {"model": {...}, "training": {...}, "parallel": {...}, "hardware": {...}}, field names as
// in fields.hpp. "model.preset" (or "model": "<preset id>") starts from a model preset; a known
// "hardware.gpu" starts from that GPU preset; explicit fields override either.
// With check_rules = false only decoding problems are reported (callers that apply more edits
// validate once at the end).
DecodeResult scenario_from_json(const nlohmann::json& json, const Scenario& base = {}, bool check_rules = true);
DecodeResult scenario_from_json_text(std::string_view text, const Scenario& base = {}, bool check_rules = true);
nlohmann::json scenario_to_json(const Scenario& scenario);

// Every scalar output of core/outputs.hpp at its JSON path, plus warnings and errors: []. Byte
// counts and FLOPs are numbers.
nlohmann::json estimate_to_json(const Estimate& estimate);
// The estimate plus the composite outputs (scenario, warnings, notes, errors: [], explain when
// asked), or {"errors": [...]} when invalid. What the CLI's --json and the JS API's estimate() return.
nlohmann::json evaluation_to_json(const Scenario& scenario, const Evaluation& evaluation,
                                  const std::vector<Note>& notes = {}, bool with_explain = false);
nlohmann::json issues_to_json(const std::vector<ValidationIssue>& issues);
nlohmann::json notes_to_json(const std::vector<Note>& notes);
// [{id, label, formula, source, value, unit, inputs: [{symbol, value, unit}]}]
nlohmann::json explain_to_json(const std::vector<ExplainTerm>& terms);

// ── Link fragment (lenient: bad fields keep their defaults and are reported) ──
// "v=1&mp=llama-3-8b&gpu=H100-SXM&b=4&z=3": only fields that differ from the defaults (or from
// the named presets). Version 1 is the only one so far; every later version must still read it.
inline constexpr int link_version = 1;
inline constexpr std::size_t max_link_length = 8192;
std::string encode_link(const Scenario& scenario);
// Accepts the fragment with or without a leading '#'. The scenario is always valid: fields that
// break a rule are reset to their defaults (and named in `issues`).
DecodeResult decode_link(std::string_view fragment);

// Parses JSON without exceptions. On a syntax error returns false and sets `problem` to
// "is not valid JSON (syntax error at byte N)".
bool parse_json_text(std::string_view text, nlohmann::json& out, std::string& problem);

// Shortest decimal text that reads back as the same double.
std::string format_number(double value);

// Sets one field from text (URL value or CLI flag value); returns an issue message, or "" on success.
std::string set_field_from_text(Scenario& scenario, const FieldSpec& field, std::string_view text);

}  // namespace vramcalc::codec
