#include "codec.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "core/outputs.hpp"
#include "core/presets.hpp"

namespace vramcalc::codec {
namespace {

using nlohmann::json;

constexpr double max_exact_integer = 9007199254740992.0;  // 2^53
constexpr std::size_t max_text_length = 200;
constexpr const char* sections[] = {"model", "training", "parallel", "hardware"};

std::string choice_list(const FieldSpec& f) {
    std::string out;
    for (std::size_t i = 0; i < f.choices.size(); ++i) out += (i ? ", " : "") + std::string(f.choices[i]);
    return out;
}

// Length of the well-formed UTF-8 sequence at text[i] (RFC 3629: no overlongs, surrogates or
// code points above U+10FFFF), or 0. nlohmann::json::dump throws on anything else.
std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
    auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    unsigned char c = byte(i);
    if (c < 0x80) return 1;
    std::size_t n = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // range of the second byte
    if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c == 0xE0) n = 3, lo = 0xA0;
    else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) n = 3;
    else if (c == 0xED) n = 3, hi = 0x9F;
    else if (c == 0xF0) n = 4, lo = 0x90;
    else if (c >= 0xF1 && c <= 0xF3) n = 4;
    else if (c == 0xF4) n = 4, hi = 0x8F;
    else return 0;
    if (i + n > text.size() || byte(i + 1) < lo || byte(i + 1) > hi) return 0;
    for (std::size_t k = 2; k < n; ++k)
        if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
    return n;
}

bool valid_utf8(std::string_view text) {
    for (std::size_t i = 0; i < text.size();) {
        std::size_t n = utf8_sequence_length(text, i);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

// At most `max_bytes` of `text` as valid UTF-8 for messages: control characters, '"' and bytes
// that are not UTF-8 become '?', and no character is cut in half.
std::string printable(std::string_view text, std::size_t max_bytes) {
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        std::size_t n = utf8_sequence_length(text, i);
        if (out.size() + std::max<std::size_t>(n, 1) > max_bytes) break;
        auto c = static_cast<unsigned char>(text[i]);
        if (n == 0 || (n == 1 && (c < 0x20 || c == '"' || c == 0x7f))) {
            out += '?';
            i += std::max<std::size_t>(n, 1);
        } else {
            out.append(text.substr(i, n));
            i += n;
        }
    }
    return out;
}

std::string quoted_excerpt(std::string_view text) {
    return "\"" + printable(text, 40) + (text.size() > 40 ? "…" : "") + "\"";
}

// Checks a numeric value against the field's kind; "" when acceptable.
std::string check_numeric(const FieldSpec& f, double v) {
    if (!std::isfinite(v)) return "must be a finite number";
    if (f.kind == FieldKind::integer) {
        if (std::fabs(v) > max_exact_integer) return "is out of range (must be an integer below 2^53)";
        if (v != std::floor(v)) return "must be an integer (got " + format_number(v) + ")";
    }
    if (f.kind == FieldKind::number && std::fabs(v) > 1e300) return "is out of range";
    return "";
}

int choice_index(const FieldSpec& f, std::string_view name) {
    for (std::size_t i = 0; i < f.choices.size(); ++i)
        if (name == f.choices[i]) return int(i);
    return -1;
}

std::string describe_json_type(const json& v) {
    if (v.is_string()) return "the text " + quoted_excerpt(v.get_ref<const std::string&>());
    if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
    if (v.is_null()) return "null";
    if (v.is_array()) return "an array";
    if (v.is_object()) return "an object";
    return v.dump();
}

// Sets one field from a JSON value; "" on success, else the message.
std::string set_field_from_json(Scenario& sc, const FieldSpec& f, const json& v) {
    switch (f.kind) {
        case FieldKind::text:
            if (!v.is_string()) return "must be a string (got " + describe_json_type(v) + ")";
            if (!valid_utf8(v.get_ref<const std::string&>())) return "must be valid UTF-8 text";
            if (v.get_ref<const std::string&>().size() > max_text_length)
                return "must be at most " + std::to_string(max_text_length) + " characters";
            f.set_text(sc, v.get<std::string>());
            return "";
        case FieldKind::boolean:
            if (!v.is_boolean()) return "must be true or false (got " + describe_json_type(v) + ")";
            f.set(sc, v.get<bool>() ? 1.0 : 0.0);
            return "";
        case FieldKind::choice: {
            if (!v.is_string()) return "must be one of " + choice_list(f) + " (got " + describe_json_type(v) + ")";
            int index = choice_index(f, v.get_ref<const std::string&>());
            if (index < 0) return "must be one of " + choice_list(f) + " (got " + describe_json_type(v) + ")";
            f.set(sc, double(index));
            return "";
        }
        case FieldKind::integer:
        case FieldKind::number: {
            if (!v.is_number())
                return std::string("must be ") + (f.kind == FieldKind::integer ? "an integer" : "a number") +
                       " (got " + describe_json_type(v) + ")";
            double value = v.get<double>();
            std::string problem = check_numeric(f, value);
            if (!problem.empty()) return problem;
            f.set(sc, value);
            return "";
        }
    }
    return "has an unsupported kind";
}

bool parse_double(std::string_view text, double& out) {
    if (text.empty() || text.size() > 64) return false;
    std::string copy(text);
    char* end = nullptr;
    out = std::strtod(copy.c_str(), &end);
    return end == copy.c_str() + copy.size();
}

std::string percent_encode(std::string_view text) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : text) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
            out += char(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

bool percent_decode(std::string_view text, std::string& out) {
    out.clear();
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (c == '%') {
            if (i + 2 >= text.size()) return false;
            int value = 0;
            auto [ptr, ec] = std::from_chars(text.data() + i + 1, text.data() + i + 3, value, 16);
            if (ec != std::errc() || ptr != text.data() + i + 3) return false;
            out += char(value);
            i += 2;
        } else {
            out += c;
        }
    }
    return true;
}

bool same_model_fields(const Scenario& a, const Scenario& b) {
    for (const auto& f : scenario_fields())
        if (std::string_view(f.path).starts_with("model.") && !field_equal(f, a, b)) return false;
    return true;
}

// The scenario a link is encoded against: defaults, with the named model and GPU presets applied.
Scenario base_for_link(const Scenario& sc, std::string& model_preset, std::string& gpu_preset) {
    Scenario base;
    if (const ModelPreset* mp = find_model_preset(sc.model.name)) {
        Scenario with_preset;
        with_preset.model = mp->model;
        if (!same_model_fields(with_preset, base)) model_preset = mp->id;
        base.model = mp->model;
    }
    if (const GpuPreset* gp = find_gpu_preset(sc.hardware.gpu); gp && sc.hardware.gpu != base.hardware.gpu) {
        apply_gpu_preset(base.hardware, *gp);
        gpu_preset = gp->id;
    }
    return base;
}

// Resets every field named by a rule violation to its value in `base`, until the scenario is
// valid; falls back to `base` itself.
void repair(Scenario& sc, const Scenario& base, std::vector<ValidationIssue>& report) {
    for (int round = 0; round < 4; ++round) {
        auto problems = validate(sc);
        if (problems.empty()) return;
        for (auto& p : problems) {
            if (const FieldSpec* f = find_field_by_path(p.field)) {
                if (f->kind == FieldKind::text) f->set_text(sc, f->get_text(base));
                else f->set(sc, f->get(base));
            }
            p.message += " — reset to the default";
            report.push_back(std::move(p));
        }
    }
    if (!validate(sc).empty()) {
        report.push_back({"link", "the scenario could not be repaired field by field; using the defaults"});
        sc = base;
    }
}

}  // namespace

std::string format_number(double value) {
    if (!std::isfinite(value)) return "0";
    char buffer[40];
    if (value == std::floor(value) && std::fabs(value) < 1e15) {
        std::snprintf(buffer, sizeof buffer, "%.0f", value);
        std::string integer = buffer;
        // Round numbers read better as 2e12 than 2000000000000.
        std::size_t zeros = integer.size() - integer.find_last_not_of('0') - 1;
        if (zeros < 6) return integer;
    }
    for (int precision = 1; precision <= 17; ++precision) {
        std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
        if (std::strtod(buffer, nullptr) == value) break;
    }
    std::string out = buffer;  // drop the exponent's '+' and leading zeros: 1e+09 -> 1e9
    if (auto e = out.find("e+"); e != std::string::npos) out.erase(e + 1, 1);
    if (auto e = out.find('e'); e != std::string::npos) {
        std::size_t digits = e + 1 + (out[e + 1] == '-' ? 1 : 0);
        while (digits + 1 < out.size() && out[digits] == '0') out.erase(digits, 1);
    }
    return out;
}

std::string set_field_from_text(Scenario& sc, const FieldSpec& f, std::string_view text) {
    switch (f.kind) {
        case FieldKind::text:
            if (text.size() > max_text_length) return "must be at most " + std::to_string(max_text_length) + " characters";
            if (!valid_utf8(text)) return "must be valid UTF-8 text (got " + quoted_excerpt(text) + ")";
            f.set_text(sc, std::string(text));
            return "";
        case FieldKind::boolean:
            if (text == "1" || text == "true") f.set(sc, 1.0);
            else if (text == "0" || text == "false") f.set(sc, 0.0);
            else return "must be 1/0 or true/false (got " + quoted_excerpt(text) + ")";
            return "";
        case FieldKind::choice: {
            int index = choice_index(f, text);
            if (index < 0) return "must be one of " + choice_list(f) + " (got " + quoted_excerpt(text) + ")";
            f.set(sc, double(index));
            return "";
        }
        case FieldKind::integer:
        case FieldKind::number: {
            double value = 0;
            if (!parse_double(text, value))
                return std::string("must be ") + (f.kind == FieldKind::integer ? "an integer" : "a number") +
                       " (got " + quoted_excerpt(text) + ")";
            std::string problem = check_numeric(f, value);
            if (!problem.empty()) return problem;
            f.set(sc, value);
            return "";
        }
    }
    return "has an unsupported kind";
}

DecodeResult scenario_from_json(const json& j, const Scenario& base, bool check_rules) {
    DecodeResult r{base, {}, {}};
    if (!j.is_object()) {
        r.issues.push_back({"scenario", "must be a JSON object with model, training, parallel and hardware sections"});
        return r;
    }
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (std::find_if(std::begin(sections), std::end(sections), [&](const char* s) { return it.key() == s; }) ==
            std::end(sections))
            r.issues.push_back({it.key(), "unknown section (expected model, training, parallel or hardware)"});
    }
    // Presets first, so explicit fields override them.
    if (auto m = j.find("model"); m != j.end()) {
        if (m->is_string()) {
            if (!apply_model_preset(r.scenario, m->get<std::string>(), &r.notes))
                r.issues.push_back({"model", "unknown model preset " + quoted_excerpt(m->get<std::string>())});
        } else if (m->is_object()) {
            if (auto p = m->find("preset"); p != m->end()) {
                if (!p->is_string() || !apply_model_preset(r.scenario, p->get<std::string>(), &r.notes))
                    r.issues.push_back({"model.preset", "unknown model preset " + describe_json_type(*p)});
            }
        }
    }
    if (auto h = j.find("hardware"); h != j.end() && h->is_object()) {
        if (auto g = h->find("gpu"); g != h->end() && g->is_string()) apply_gpu_preset(r.scenario, g->get<std::string>());
    }
    for (const char* section : sections) {
        auto s = j.find(section);
        if (s == j.end() || (s->is_string() && std::string_view(section) == "model")) continue;
        if (!s->is_object()) {
            r.issues.push_back({section, "must be an object (got " + describe_json_type(*s) + ")"});
            continue;
        }
        for (auto it = s->begin(); it != s->end(); ++it) {
            std::string path = std::string(section) + "." + it.key();
            if (path == "model.preset") continue;
            const FieldSpec* f = find_field_by_path(path);
            if (!f) {
                r.issues.push_back({path, "unknown field"});
                continue;
            }
            std::string problem = set_field_from_json(r.scenario, *f, it.value());
            if (!problem.empty()) r.issues.push_back({path, problem});
        }
    }
    if (check_rules && r.issues.empty()) r.issues = validate(r.scenario);
    return r;
}

bool parse_json_text(std::string_view text, json& out, std::string& problem) {
    out = json::parse(text.begin(), text.end(), nullptr, false);
    if (!out.is_discarded()) return true;
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
    json::sax_parse(text.begin(), text.end(), &locator, json::input_format_t::json, false);
    problem = "is not valid JSON (syntax error at byte " + std::to_string(locator.position) + ")";
    return false;
}

DecodeResult scenario_from_json_text(std::string_view text, const Scenario& base, bool check_rules) {
    json j;
    std::string problem;
    if (!parse_json_text(text, j, problem)) return DecodeResult{base, {{"json", problem}}, {}};
    return scenario_from_json(j, base, check_rules);
}

json scenario_to_json(const Scenario& sc) {
    json out = json::object();
    for (const auto& f : scenario_fields()) {
        std::string_view path = f.path;
        auto dot = path.find('.');
        std::string section(path.substr(0, dot)), key(path.substr(dot + 1));
        json& target = out[section];
        switch (f.kind) {
            case FieldKind::text: target[key] = f.get_text(sc); break;
            case FieldKind::boolean: target[key] = f.get(sc) != 0.0; break;
            case FieldKind::choice: target[key] = f.choices[std::size_t(f.get(sc))]; break;
            case FieldKind::integer: target[key] = static_cast<std::int64_t>(f.get(sc)); break;
            case FieldKind::number: target[key] = f.get(sc); break;
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

json warnings_to_json(const Warnings& warnings) {
    json out = json::array();
    for (int i = 0; i < warnings.count; ++i)
        out.push_back({{"id", warning_id(warnings.items[i])}, {"message", warning_message(warnings.items[i])}});
    return out;
}

}  // namespace

json estimate_to_json(const Estimate& e) {
    json out = json::object();
    for (const auto& o : outputs()) {
        json& leaf = json_at(out, o.path);
        switch (o.kind) {
            case ValueKind::number: leaf = o.value(e); break;
            case ValueKind::integer: leaf = static_cast<std::int64_t>(o.value(e)); break;
            case ValueKind::flag: leaf = o.value(e) != 0.0; break;
            case ValueKind::text: leaf = o.text ? o.text(e) : ""; break;
        }
    }
    out["warnings"] = warnings_to_json(e.warnings);
    out["errors"] = json::array();
    return out;
}

json evaluation_to_json(const Scenario& sc, const Evaluation& ev, const std::vector<Note>& notes,
                        bool with_explain) {
    if (!ev.ok()) return {{"errors", issues_to_json(ev.errors)}};
    json out = estimate_to_json(ev.estimate);
    for (const auto& c : composite_outputs()) {
        switch (c.kind) {
            case CompositeKind::scenario: out[c.path] = scenario_to_json(sc); break;
            case CompositeKind::warnings: out[c.path] = warnings_to_json(ev.estimate.warnings); break;
            case CompositeKind::notes: out[c.path] = notes_to_json(notes); break;
            case CompositeKind::errors: out[c.path] = json::array(); break;
            case CompositeKind::explain:
                if (with_explain) out[c.path] = explain_to_json(explain(sc, ev.estimate));
                break;
        }
    }
    return out;
}

std::string encode_link(const Scenario& sc) {
    std::string model_preset, gpu_preset;
    Scenario base = base_for_link(sc, model_preset, gpu_preset);
    std::string out = "v=" + std::to_string(link_version);
    if (!model_preset.empty()) out += "&mp=" + percent_encode(model_preset);
    if (!gpu_preset.empty()) out += "&gpu=" + percent_encode(gpu_preset);
    for (const auto& f : scenario_fields()) {
        if (field_equal(f, sc, base)) continue;
        out += '&';
        out += f.url_key;
        out += '=';
        switch (f.kind) {
            case FieldKind::text: out += percent_encode(f.get_text(sc)); break;
            case FieldKind::boolean: out += f.get(sc) != 0.0 ? "1" : "0"; break;
            case FieldKind::choice: out += f.choices[std::size_t(f.get(sc))]; break;
            case FieldKind::integer:
            case FieldKind::number: out += format_number(f.get(sc)); break;
        }
    }
    return out;
}

DecodeResult decode_link(std::string_view fragment) {
    DecodeResult r;
    if (!fragment.empty() && fragment.front() == '#') fragment.remove_prefix(1);
    if (fragment.size() > max_link_length) {
        r.issues.push_back({"link", "is longer than " + std::to_string(max_link_length) + " characters; ignored"});
        return r;
    }
    struct Pair {
        std::string key, value;
    };
    std::vector<Pair> pairs;
    while (!fragment.empty()) {
        auto amp = fragment.find('&');
        std::string_view item = fragment.substr(0, amp);
        fragment = amp == std::string_view::npos ? std::string_view{} : fragment.substr(amp + 1);
        if (item.empty()) continue;
        auto eq = item.find('=');
        Pair pair;
        bool key_ok = percent_decode(item.substr(0, eq), pair.key);
        bool value_ok = eq == std::string_view::npos || percent_decode(item.substr(eq + 1), pair.value);
        if (!key_ok || !value_ok) {
            r.issues.push_back({"link", "has a malformed item " + quoted_excerpt(item) + "; ignored"});
            continue;
        }
        if (eq == std::string_view::npos) {
            if (pair.key != "embed") r.issues.push_back({printable(pair.key, 40), "has no value; ignored"});
            continue;
        }
        pairs.push_back(std::move(pair));
    }
    // Presets first, then fields in the order given.
    Scenario base;
    for (const auto& p : pairs) {
        if (p.key == "v") {
            if (p.value != std::to_string(link_version))
                r.issues.push_back({"v", "link version " + quoted_excerpt(p.value) + " is not " +
                                             std::to_string(link_version) + "; reading the fields this version knows"});
        } else if (p.key == "mp") {
            if (apply_model_preset(r.scenario, p.value)) base.model = r.scenario.model;
            else r.issues.push_back({"model.preset", "unknown model preset " + quoted_excerpt(p.value) + "; ignored"});
        } else if (p.key == "gpu") {
            if (apply_gpu_preset(r.scenario, p.value)) base.hardware = r.scenario.hardware;
        }
    }
    for (const auto& p : pairs) {
        if (p.key == "v" || p.key == "mp" || p.key == "embed") continue;
        const FieldSpec* f = find_field_by_url_key(p.key);
        if (!f) {
            r.issues.push_back({printable(p.key, 40), "unknown link key; ignored"});
            continue;
        }
        if (p.key == "gpu" && find_gpu_preset(p.value)) continue;  // already applied as a preset
        std::string problem = set_field_from_text(r.scenario, *f, p.value);
        if (!problem.empty()) r.issues.push_back({f->path, problem + "; using the default"});
    }
    repair(r.scenario, base, r.issues);
    return r;
}

}  // namespace vramcalc::codec
