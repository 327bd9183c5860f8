#include "codec/scenario_json.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <set>

#include "codec/field_text.hpp"
#include "codec/numbers.hpp"
#include "format/shortest.hpp"
#include "codec/text.hpp"
#include "core/outputs.hpp"
#include "core/training/fixes.hpp"
#include "core/training/frameworks.hpp"
#include "core/model/presets.hpp"

namespace vramcalc::codec {

using nlohmann::json;

namespace {

constexpr const char* sections[] = {"model", "training", "parallel", "hardware", "inference"};
// Fields outside every section: their path has no dot ("workload").
bool is_top_level_field(std::string_view key) { return key.find('.') == std::string_view::npos && find_field_by_path(key); }

// Sets one field from a JSON value; "" on success, else the message.
std::string set_field_from_json(Scenario& sc, const FieldSpec& f, const json& v) {
    switch (f.kind) {
        case FieldKind::text:
            if (!v.is_string()) return "must be a string (got " + describe_json(v) + ")";
            return set_field_text(sc, f, v.get_ref<const std::string&>());
        case FieldKind::boolean:
            if (!v.is_boolean()) return "must be true or false (got " + describe_json(v) + ")";
            return set_field_number(sc, f, v.get<bool>() ? 1.0 : 0.0);
        case FieldKind::choice: {
            int index = v.is_string() ? choice_index(f, v.get_ref<const std::string&>()) : -1;
            if (index < 0) return "must be one of " + choice_list(f) + " (got " + describe_json(v) + ")";
            return set_field_number(sc, f, double(index));
        }
        case FieldKind::integer:
        case FieldKind::number:
            if (!v.is_number())
                return std::string("must be ") + (f.kind == FieldKind::integer ? "an integer" : "a number") +
                       " (got " + describe_json(v) + ")";
            return set_field_number(sc, f, v.get<double>());
    }
    return "has an unsupported kind";
}

}  // namespace

std::string describe_text(std::string_view text) { return "the text " + quoted_excerpt(text); }

std::string describe_json(const json& v) {
    if (v.is_string()) return describe_text(v.get_ref<const std::string&>());
    if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
    if (v.is_null()) return "null";
    if (v.is_array()) return "an array";
    if (v.is_object()) return "an object";
    if (v.is_number_unsigned()) return std::to_string(v.get<std::uint64_t>());
    if (v.is_number_integer()) return std::to_string(v.get<std::int64_t>());
    if (v.is_number_float()) return format_shortest(v.get<double>());
    return "a value";
}

bool parse_json_object(std::string_view text, json& out, std::vector<ValidationIssue>& issues) {
    if (text.size() > max_import_bytes) {
        issues.push_back({"json", "is larger than " + std::to_string(max_import_bytes) + " bytes; not read"});
        return false;
    }
    std::string problem;
    std::vector<std::string> duplicates;
    if (!parse_json_text(text, out, problem, &duplicates)) {
        issues.push_back({"json", problem});
        return false;
    }
    if (!duplicates.empty()) {
        report_duplicate_keys(duplicates, issues);
        return false;
    }
    if (!out.is_object()) {
        issues.push_back({"json", "must be a JSON object {...} (got " + describe_json(out) + ")"});
        return false;
    }
    return true;
}

namespace {

// Follows the parser through nested objects and arrays and notes every key an object already had.
// Each level keeps only its own keys; a path is built only for a key found twice.
class DuplicateKeyFinder {
public:
    explicit DuplicateKeyFinder(std::vector<std::string>* found) : found_(found) {}

    bool operator()(int, json::parse_event_t event, json& parsed) {
        switch (event) {
            case json::parse_event_t::object_start: frames_.push_back({true, {}, {}}); break;
            case json::parse_event_t::array_start: frames_.push_back({false, {}, {}}); break;
            case json::parse_event_t::object_end:
            case json::parse_event_t::array_end:
                if (!frames_.empty()) frames_.pop_back();
                break;
            case json::parse_event_t::key:
                if (!frames_.empty() && parsed.is_string()) {
                    Frame& top = frames_.back();
                    top.key = parsed.get<std::string>();
                    if (!top.keys.insert(top.key).second && found_) {
                        std::string path = path_of_key();
                        if (reported_.insert(path).second) found_->push_back(path);
                    }
                }
                break;
            case json::parse_event_t::value: break;
        }
        return true;
    }

private:
    struct Frame {
        bool object;
        std::set<std::string> keys;
        std::string key;  // the key whose value is being read
    };

    // "model.layers", "layers[].name": the innermost frame's current key, as shown in messages.
    std::string path_of_key() const {
        std::string path;
        for (std::size_t i = 0; i + 1 < frames_.size(); ++i) {
            if (!frames_[i].object) path += "[]";
            else path += (path.empty() ? "" : ".") + key_label(frames_[i].key);
        }
        return (path.empty() ? "" : path + ".") + key_label(frames_.back().key);
    }

    std::vector<std::string>* found_;
    std::vector<Frame> frames_;
    std::set<std::string> reported_;
};

// The byte at which `text` opens its (max_json_depth + 1)-th nested object or array, or npos. Strings
// (and the brackets inside them) are skipped; a syntax error is left to the parser.
std::size_t too_deep_at(std::string_view text) {
    int depth = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (in_string) {
            if (c == '\\') ++i;
            else if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            if (++depth > max_json_depth) return i;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return std::string_view::npos;
}

bool json_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool digit(char c) { return c >= '0' && c <= '9'; }

// Where a JSON number or literal (true, false, null) that starts at `i` ends, as the JSON grammar reads it.
std::size_t scalar_end(std::string_view text, std::size_t i) {
    auto digits = [&] { while (i < text.size() && digit(text[i])) ++i; };
    char c = text[i];
    if (c == 't' || c == 'n') return std::min(text.size(), i + 4);
    if (c == 'f') return std::min(text.size(), i + 5);
    if (c == '-') ++i;
    digits();
    if (i < text.size() && text[i] == '.') ++i, digits();
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
        digits();
    }
    return i;
}

// The byte where text after the first complete JSON value of `text` starts (its whitespace skipped).
std::size_t after_first_value(std::string_view text) {
    std::size_t i = 0;
    while (i < text.size() && json_space(text[i])) ++i;
    if (i < text.size() && text[i] != '{' && text[i] != '[' && text[i] != '"') {
        i = scalar_end(text, i);
    } else {
        int depth = 0;
        bool in_string = false;
        for (; i < text.size(); ++i) {
            char c = text[i];
            if (in_string) {
                if (c == '\\') ++i;
                else if (c == '"' && (in_string = false, depth == 0)) break;
            } else if (c == '"') {
                in_string = true;
            } else if (c == '[' || c == '{') {
                ++depth;
            } else if ((c == ']' || c == '}') && --depth == 0) {
                break;
            }
        }
        ++i;
    }
    while (i < text.size() && json_space(text[i])) ++i;
    return std::min(i, text.size());
}

}  // namespace

void report_duplicate_keys(const std::vector<std::string>& paths, std::vector<ValidationIssue>& issues) {
    for (const auto& path : paths)
        issues.push_back({path.empty() ? "json" : path, "is given more than once (duplicate JSON key); give it once"});
}

bool parse_json_text(std::string_view text, json& out, std::string& problem, std::vector<std::string>* duplicate_keys) {
    if (std::size_t at = too_deep_at(text); at != std::string_view::npos) {
        if (duplicate_keys) duplicate_keys->clear();
        out = json();
        problem = "is nested deeper than " + std::to_string(max_json_depth) +
                  " levels (objects and arrays inside each other) at byte " + std::to_string(at) + "; not read";
        return false;
    }
    // Without a list to fill, no parse callback (a callback slows nlohmann's parser down).
    out = duplicate_keys ? json::parse(text.begin(), text.end(), DuplicateKeyFinder(duplicate_keys), false)
                         : json::parse(text.begin(), text.end(), nullptr, false);
    if (!out.is_discarded()) return true;
    if (duplicate_keys) duplicate_keys->clear();
    // A second pass through the SAX interface reports where the syntax breaks.
    struct Locator : nlohmann::json_sax<json> {
        std::size_t position = 0;
        bool null() override { return true; }
        bool boolean(bool) override { return true; }
        bool number_integer(number_integer_t) override { return true; }
        bool number_unsigned(number_unsigned_t) override { return true; }
        bool number_float(number_float_t, const string_t&) override { return true; }
        bool string(string_t&) override { return true; }
        bool binary(binary_t&) override { return true; }
        bool start_object(std::size_t) override { return true; }
        bool key(string_t&) override { return true; }
        bool end_object() override { return true; }
        bool start_array(std::size_t) override { return true; }
        bool end_array() override { return true; }
        bool parse_error(std::size_t p, const std::string&, const nlohmann::detail::exception&) override {
            position = p;
            return false;
        }
    };
    Locator locator;
    // Not strict: a complete value followed by more text parses; that text is then the problem.
    if (json::sax_parse(text.begin(), text.end(), &locator, json::input_format_t::json, false)) {
        problem = "is not valid JSON (text after the JSON value at byte " + std::to_string(after_first_value(text)) + ")";
        return false;
    }
    problem = "is not valid JSON (syntax error at byte " + std::to_string(locator.position) + ")";
    return false;
}

namespace {

// Both scenario decoders (a JSON object, field values) take these steps in this order, which
// decides which value wins and the order of the issues: (1) the model preset ("model": "<id>" or
// model.preset), (2) the GPU preset hardware.gpu names, (3) the profile of training.framework —
// so explicit fields override all three; (4) the fields, section by section in `sections` order,
// each section's keys in byte order (as a JSON object iterates them); (5) finish_decode.

// Step 1; false when no preset has that id.
bool start_from_model_preset(DecodeResult& r, std::string_view id) {
    const ModelPreset* p = find_model_preset(id);
    if (p) set_model_from_preset(r.scenario, *p, &r.notes);
    return p != nullptr;
}

std::string unknown_model_preset(const std::string& described) { return "unknown model preset " + described; }

// Step 5: a chosen model keeps the sequence it can take, and a served one the context it can take,
// unless the input sets them; then the rules.
void finish_decode(DecodeResult& r, bool model_preset, bool seq_len_given, bool context_given, bool check_rules) {
    if (model_preset && !seq_len_given) fit_sequence_to_model(r.scenario, &r.notes);
    if (!context_given) fit_context_to_model(r.scenario, &r.notes);
    if (check_rules && r.issues.empty()) r.issues = validate(r.scenario);
}

// scenario_from_json without the limit on the number of issues.
DecodeResult decode_scenario(const json& j, const Scenario& base, bool check_rules) {
    DecodeResult r{base, {}, {}};
    if (!j.is_object()) {
        r.issues.push_back({"scenario", "must be a JSON object with model, training, parallel and hardware sections"});
        return r;
    }
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (std::find_if(std::begin(sections), std::end(sections), [&](const char* s) { return it.key() == s; }) ==
                std::end(sections) &&
            !is_top_level_field(it.key()))
            r.issues.push_back({key_label(it.key()), "unknown section (expected workload, model, training, parallel, hardware or inference)"});
    }
    bool model_preset = false;
    if (auto m = j.find("model"); m != j.end()) {
        if (m->is_string()) {
            model_preset = start_from_model_preset(r, m->get_ref<const std::string&>());
            if (!model_preset) r.issues.push_back({"model", unknown_model_preset(quoted_excerpt(m->get_ref<const std::string&>()))});
        } else if (m->is_object()) {
            if (auto p = m->find("preset"); p != m->end()) {
                model_preset = p->is_string() && start_from_model_preset(r, p->get_ref<const std::string&>());
                if (!model_preset) r.issues.push_back({"model.preset", unknown_model_preset(describe_json(*p))});
            }
        }
    }
    if (auto h = j.find("hardware"); h != j.end() && h->is_object()) {
        if (auto g = h->find("gpu"); g != h->end() && g->is_string()) apply_gpu_preset(r.scenario, g->get<std::string>());
    }
    if (auto t = j.find("training"); t != j.end() && t->is_object()) {
        if (auto fw = t->find("framework"); fw != t->end() && fw->is_string()) {
            const auto names = framework_names();
            for (std::size_t i = 0; i < names.size(); ++i)
                if (fw->get_ref<const std::string&>() == names[i]) apply_framework_profile(r.scenario, Framework(i));
        }
    }
    for (const char* section : sections) {
        auto s = j.find(section);
        if (s == j.end() || (s->is_string() && std::string_view(section) == "model")) continue;
        if (!s->is_object()) {
            r.issues.push_back({section, "must be an object (got " + describe_json(*s) + ")"});
            continue;
        }
        for (auto it = s->begin(); it != s->end(); ++it) {
            std::string path = std::string(section) + "." + it.key();
            if (path == "model.preset") continue;
            const FieldSpec* f = find_field_by_path(path);
            if (!f) {
                r.issues.push_back({std::string(section) + "." + key_label(it.key()), "unknown field"});
                continue;
            }
            std::string problem = set_field_from_json(r.scenario, *f, it.value());
            if (!problem.empty()) r.issues.push_back({path, problem});
        }
    }
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (!is_top_level_field(it.key())) continue;
        std::string problem = set_field_from_json(r.scenario, *find_field_by_path(it.key()), it.value());
        if (!problem.empty()) r.issues.push_back({it.key(), problem});
    }
    auto t = j.find("training"), i = j.find("inference");
    finish_decode(r, model_preset, t != j.end() && t->is_object() && t->contains("seq_len"),
                  i != j.end() && i->is_object() && i->contains("context_len"), check_rules);
    return r;
}

// Field-table indices in the order step 4 visits the fields.
const std::vector<std::size_t>& decode_order() {
    static const std::vector<std::size_t> order = [] {
        const auto fields = scenario_fields();
        auto section_rank = [](std::string_view path) {
            std::string_view section = path.substr(0, path.find('.'));
            return std::find_if(std::begin(sections), std::end(sections), [&](const char* s) { return section == s; }) -
                   std::begin(sections);
        };
        std::vector<std::size_t> out(fields.size());
        std::iota(out.begin(), out.end(), std::size_t(0));
        std::sort(out.begin(), out.end(), [&](std::size_t a, std::size_t b) {
            std::string_view pa = fields[a].path, pb = fields[b].path;
            auto ra = section_rank(pa), rb = section_rank(pb);
            return ra != rb ? ra < rb : pa.substr(pa.find('.') + 1) < pb.substr(pb.find('.') + 1);
        });
        return out;
    }();
    return order;
}

std::size_t field_index(const char* path) { return std::size_t(find_field_by_path(path) - scenario_fields().data()); }

}  // namespace

DecodeResult scenario_from_fields(const FieldValues& input, const Scenario& base, bool check_rules) {
    static const std::size_t gpu = field_index("hardware.gpu"), framework = field_index("training.framework"),
                             seq_len = field_index("training.seq_len"),
                             context_len = field_index("inference.context_len");
    const auto fields = scenario_fields();
    DecodeResult r{base, {}, {}};
    std::vector<const FieldValue*> given(fields.size(), nullptr);
    for (const FieldValue& v : input.fields) {
        std::size_t i = std::size_t(v.field - fields.data());
        if (i < fields.size()) given[i] = &v;
    }
    bool model_preset = false;
    if (input.model_preset) {
        model_preset = start_from_model_preset(r, *input.model_preset);
        if (!model_preset)
            r.issues.push_back(input.model_is_preset_id
                                   ? ValidationIssue{"model", unknown_model_preset(quoted_excerpt(*input.model_preset))}
                                   : ValidationIssue{"model.preset", unknown_model_preset(describe_text(*input.model_preset))});
    }
    if (given[gpu]) apply_gpu_preset(r.scenario, given[gpu]->text);
    if (const FieldValue* fw = given[framework]) {
        if (fw->number >= 0 && fw->number < double(framework_names().size()))
            apply_framework_profile(r.scenario, Framework(int(fw->number)));
    }
    for (std::size_t i : decode_order()) {
        const FieldValue* v = given[i];
        if (!v) continue;
        const FieldSpec& f = fields[i];
        std::string problem = f.kind == FieldKind::text ? set_field_text(r.scenario, f, v->text)
                                                        : set_field_number(r.scenario, f, v->number);
        if (!problem.empty()) r.issues.push_back({f.path, problem});
    }
    finish_decode(r, model_preset, given[seq_len] != nullptr, given[context_len] != nullptr, check_rules);
    tidy_issues(r.issues, "json");
    return r;
}

DecodeResult scenario_from_json(const json& j, const Scenario& base, bool check_rules) {
    DecodeResult r = decode_scenario(j, base, check_rules);
    tidy_issues(r.issues, "json");
    return r;
}

DecodeResult scenario_from_json_text(std::string_view text, const Scenario& base, bool check_rules) {
    json j;
    std::string problem;
    std::vector<std::string> duplicates;
    if (!parse_json_text(text, j, problem, &duplicates)) return DecodeResult{base, {{"json", problem}}, {}};
    if (duplicates.empty()) return scenario_from_json(j, base, check_rules);
    // The other problems are listed too; the duplicates alone make the input invalid.
    DecodeResult r = decode_scenario(j, base, false);
    std::vector<ValidationIssue> issues;
    report_duplicate_keys(duplicates, issues);
    r.issues.insert(r.issues.begin(), issues.begin(), issues.end());
    tidy_issues(r.issues, "json");
    return r;
}

json scenario_to_json(const Scenario& sc) {
    json out = json::object();
    for (const auto& f : scenario_fields()) {
        std::string_view path = f.path;
        auto dot = path.find('.');
        const bool top = dot == std::string_view::npos;
        std::string section(top ? "" : path.substr(0, dot)), key(top ? path : path.substr(dot + 1));
        json& value = top ? out[key] : out[section][key];
        switch (f.kind) {
            case FieldKind::text: value = f.get_text(sc); break;
            case FieldKind::boolean: value = f.get(sc) != 0.0; break;
            case FieldKind::choice: value = f.choices[std::size_t(f.get(sc))]; break;
            case FieldKind::integer: value = static_cast<std::int64_t>(f.get(sc)); break;
            case FieldKind::number: value = f.get(sc); break;
        }
    }
    return out;
}

json issues_to_json(const std::vector<ValidationIssue>& issues) {
    json out = json::array();
    for (const auto& i : issues) out.push_back({{"field", i.field}, {"message", i.message}});
    return out;
}

json notes_to_json(const std::vector<Note>& notes) {
    json out = json::array();
    for (const auto& n : notes) out.push_back({{"field", n.field}, {"message", n.message}});
    return out;
}

json explain_to_json(const std::vector<ExplainTerm>& terms) {
    json out = json::array();
    for (const auto& t : terms) {
        json inputs = json::array();
        for (const auto& i : t.inputs) inputs.push_back({{"symbol", i.symbol}, {"value", i.value}, {"unit", i.unit}});
        out.push_back({{"id", t.id}, {"label", t.label}, {"formula", t.formula}, {"source", t.source},
                       {"value", t.value}, {"unit", t.unit}, {"inputs", inputs}});
    }
    return out;
}

namespace {

// The JSON value an output path points to, creating the objects on the way ("a.b.c").
json& json_at(json& root, std::string_view path) {
    json* target = &root;
    for (auto dot = path.find('.'); dot != std::string_view::npos; dot = path.find('.')) {
        target = &(*target)[std::string(path.substr(0, dot))];
        path.remove_prefix(dot + 1);
    }
    return (*target)[std::string(path)];
}

json memory_timeline_to_json(const MemoryTimeline& timeline) {
    json out = json::array();
    for (StepPhase phase : all_step_phases) {
        const PhaseMemory& p = timeline.at(phase);
        json& entry = out.emplace_back(json::object());
        entry["phase"] = step_phase_id(phase);
        for (const auto& c : memory_timeline_components()) entry[c.key] = c.bytes(p);
    }
    return out;
}

json warnings_to_json(const Warnings& warnings) {
    json out = json::array();
    for (int i = 0; i < warnings.count; ++i)
        out.push_back({{"id", warning_id(warnings.items[i])}, {"message", warning_message(warnings.items[i])}});
    return out;
}

}  // namespace

static void set_output(json& root, const OutputSpec& o, std::string_view path, const Estimate& e) {
    json& leaf = json_at(root, path);
    switch (o.kind) {
        case ValueKind::number: leaf = o.value(e); break;
        case ValueKind::integer: leaf = static_cast<std::int64_t>(o.value(e)); break;
        case ValueKind::flag: leaf = o.value(e) != 0.0; break;
        case ValueKind::text: leaf = o.text ? o.text(e) : ""; break;
    }
}

json outputs_to_json(const Estimate& e, std::string_view object_path) {
    json out = json::object();
    for (const auto& o : outputs()) {
        std::string_view path = o.path;
        if (!output_applies(o, e.workload)) continue;
        if (path.size() > object_path.size() && path.starts_with(object_path) && path[object_path.size()] == '.')
            set_output(out, o, path.substr(object_path.size() + 1), e);
    }
    return out;
}

json estimate_to_json(const Estimate& e) {
    json out = json::object();
    for (const auto& o : outputs())
        if (output_applies(o, e.workload)) set_output(out, o, o.path, e);
    out["warnings"] = warnings_to_json(e.warnings);
    out["errors"] = json::array();
    return out;
}

std::span<const PhaseComponent> memory_timeline_components() {
    static constexpr auto components = [] {
        std::array<PhaseComponent, std::size(memory_components) + 1> out{};
        std::size_t i = 0;
        for (const auto& c : memory_components) out[i++] = {c.id, c.bytes};
        out[i] = {"total", nullptr};
        return out;
    }();
    return components;
}

namespace {

// The fields `to` changes, with their new values as the scenario's JSON writes them.
json changed_fields(const Scenario& from, const Scenario& to) {
    const json values = scenario_to_json(to);
    json out = json::object();
    for (const auto& f : scenario_fields()) {
        bool same = f.kind == FieldKind::text ? f.get_text(from) == f.get_text(to) : f.get(from) == f.get(to);
        if (same) continue;
        std::string path = f.path;
        auto dot = path.find('.');
        out[path] = dot == std::string::npos ? values[path] : values[path.substr(0, dot)][path.substr(dot + 1)];
    }
    return out;
}

}  // namespace

json fixes_to_json(const Scenario& sc, const Evaluation& ev) {
    json out = json::array();
    if (!ev.ok() || ev.estimate.fits) return out;
    for (const Fix& f : fixes_that_fit(sc))
        out.push_back({{"id", fix_id(f.kind)},
                       {"change", describe_fix(f, sc)},
                       {"fields", changed_fields(sc, f.scenario)},
                       {"total_bytes", f.total_bytes},
                       {"headroom_bytes", f.headroom_bytes}});
    return out;
}

json composite_to_json(const CompositeOutputSpec& composite, const Scenario& sc, const Evaluation& ev,
                       const std::vector<Note>& notes) {
    switch (composite.kind) {
        case CompositeKind::scenario: return scenario_to_json(sc);
        case CompositeKind::warnings: return warnings_to_json(ev.estimate.warnings);
        case CompositeKind::notes: return notes_to_json(notes);
        case CompositeKind::errors: return json::array();
        case CompositeKind::explain: return explain_to_json(explain(sc, ev.estimate));
        case CompositeKind::memory_timeline: return memory_timeline_to_json(ev.estimate.memory_timeline);
        case CompositeKind::fixes: return fixes_to_json(sc, ev);
    }
    return nullptr;
}

json evaluation_to_json(const Scenario& sc, const Evaluation& ev, const std::vector<Note>& notes,
                        bool with_explain) {
    if (!ev.ok()) return {{"errors", issues_to_json(ev.errors)}};
    json out = estimate_to_json(ev.estimate);
    for (const auto& c : composite_outputs())
        if (c.always || with_explain) out[c.path] = composite_to_json(c, sc, ev, notes);
    return out;
}

}  // namespace vramcalc::codec
