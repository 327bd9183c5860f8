// Embind glue of the vramcalc JS API. Every function takes and returns JSON text: the JS wrapper
// (vramcalc.mjs) serialises its argument and JSON.parse()s the result, so byte counts cross the
// boundary as doubles and JS never owns a C++ object (nothing to delete()).
// No formula lives here: everything is core (validate/estimate) or codec (JSON, links).
#include <emscripten/bind.h>

#include <exception>
#include <string>

#include "codec/codec.hpp"
#include "codec/import_deepspeed.hpp"
#include "codec/import_hf.hpp"
#include "codec/plan_json.hpp"
#include "core/estimate.hpp"
#include "core/fields.hpp"
#include "core/presets.hpp"

#ifndef VRAMCALC_VERSION
#define VRAMCALC_VERSION "0.0.0"
#endif

namespace {

using nlohmann::json;
namespace codec = vramcalc::codec;

// Issue texts may quote hostile input cut at a byte boundary: never let invalid UTF-8 throw here.
std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

std::string internal_error(const char* where) {
    std::string what = "internal error in ";
    what += where;
    try {
        throw;
    } catch (const std::exception& e) {
        what += ": ";
        what += e.what();
    } catch (...) {
    }
    return dump({{"errors", json::array({{{"field", "scenario"}, {"message", what}}})}});
}

// {"errors": [...]} plus the fields of the CLI's --json when the scenario is valid.
std::string estimate_json(const std::string& scenario_text) {
    try {
        auto decoded = codec::scenario_from_json_text(scenario_text);
        if (!decoded.ok()) return dump({{"errors", codec::issues_to_json(decoded.issues)}});
        return dump(codec::evaluation_to_json(decoded.scenario, vramcalc::evaluate(decoded.scenario), decoded.notes));
    } catch (...) {
        return internal_error("estimate");
    }
}

// {"plans": [...], "searched", "feasible", ...} or {"errors": [...]} (scenario or options problems).
std::string plan_json(const std::string& scenario_text, const std::string& options_text) {
    try {
        auto decoded = codec::scenario_from_json_text(scenario_text);
        std::vector<vramcalc::ValidationIssue> issues = decoded.issues;
        json options_json;
        std::string problem;
        vramcalc::PlanOptions options;
        if (!codec::parse_json_text(options_text, options_json, problem))
            issues.push_back({"options", problem});
        else
            options = codec::plan_options_from_json(options_json, issues);
        if (!issues.empty()) return dump({{"errors", codec::issues_to_json(issues)}});
        json out = codec::plan_to_json(vramcalc::plan(decoded.scenario, options));
        out["errors"] = json::array();
        return dump(out);
    } catch (...) {
        return internal_error("plan");
    }
}

// [{"field", "message"}, ...]: decoding problems, or the rules the scenario breaks.
std::string validate_json(const std::string& scenario_text) {
    try {
        return dump(codec::issues_to_json(codec::scenario_from_json_text(scenario_text).issues));
    } catch (...) {
        return dump(json::array({{{"field", "scenario"}, {"message", "internal error in validate"}}}));
    }
}

// {"link": "v=2&...", "errors": []} or {"errors": [...]}.
std::string encode_link_json(const std::string& scenario_text) {
    try {
        auto decoded = codec::scenario_from_json_text(scenario_text);
        if (!decoded.ok()) return dump({{"errors", codec::issues_to_json(decoded.issues)}});
        return dump({{"link", codec::encode_link(decoded.scenario)}, {"errors", json::array()}});
    } catch (...) {
        return internal_error("encodeLink");
    }
}

// {"scenario": {...}, "issues": [...], "notes": [...]}: lenient, the scenario is always valid.
std::string decode_link_json(const std::string& fragment) {
    try {
        auto decoded = codec::decode_link(fragment);
        return dump({{"scenario", codec::scenario_to_json(decoded.scenario)},
                     {"issues", codec::issues_to_json(decoded.issues)},
                     {"notes", codec::notes_to_json(decoded.notes)}});
    } catch (...) {
        return dump({{"scenario", codec::scenario_to_json(vramcalc::Scenario{})},
                     {"issues", json::array({{{"field", "link"}, {"message", "internal error; using the defaults"}}})},
                     {"notes", json::array()}});
    }
}

// {"scenario", "family", "notes", "unmapped_keys", "ignored_keys", "issues"}: a Hugging Face
// config.json or DeepSpeed config applied onto `base_text` (a scenario as JSON; "" = the defaults).
// `issues` name the config's own keys (or "base." fields) when it could not be imported.
std::string import_json(const std::string& config_text, const std::string& base_text, bool deepspeed) {
    try {
        vramcalc::Scenario base;
        if (!base_text.empty()) {
            auto decoded = codec::scenario_from_json_text(base_text, {}, false);
            if (!decoded.ok()) {
                json issues = json::array();
                for (const auto& i : decoded.issues) issues.push_back({{"field", "base." + i.field}, {"message", i.message}});
                return dump({{"issues", issues}});
            }
            base = decoded.scenario;
        }
        auto r = deepspeed ? codec::import_deepspeed_config(config_text, base) : codec::import_hf_config(config_text, base);
        if (!r.ok()) return dump({{"issues", codec::issues_to_json(r.issues)}});
        return dump({{"scenario", codec::scenario_to_json(r.scenario)},
                     {"family", r.family},
                     {"notes", r.notes},
                     {"unmapped_keys", r.unmapped_keys},
                     {"ignored_keys", r.ignored_keys},
                     {"issues", json::array()}});
    } catch (...) {
        return dump({{"issues", json::array({{{"field", "config"}, {"message", "internal error in import"}}})}});
    }
}
std::string import_hf_json(const std::string& text, const std::string& base) { return import_json(text, base, false); }
std::string import_deepspeed_json(const std::string& text, const std::string& base) { return import_json(text, base, true); }

std::string default_scenario_json() { return dump(codec::scenario_to_json(vramcalc::Scenario{})); }

std::string model_presets_json() {
    json out = json::array();
    for (const auto& p : vramcalc::model_presets()) {
        vramcalc::Scenario sc;
        sc.model = p.model;
        json entry = {{"id", p.id}, {"name", p.model.name}, {"model", codec::scenario_to_json(sc)["model"]}};
        if (p.published_params > 0) entry["published_params"] = p.published_params;
        entry["source"] = p.source;
        out.push_back(std::move(entry));
    }
    return dump(out);
}

std::string gpu_presets_json() {
    json out = json::array();
    for (const auto& g : vramcalc::gpu_presets())
        out.push_back({{"id", g.id},
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
    return dump(out);
}

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

std::string fields_json() {
    const json defaults = codec::scenario_to_json(vramcalc::Scenario{});
    json out = json::array();
    for (const auto& f : vramcalc::scenario_fields()) {
        std::string_view path = f.path;
        auto dot = path.find('.');
        json choices = json::array();
        for (const char* c : f.choices) choices.push_back(c);
        out.push_back({{"path", f.path},
                       {"url_key", f.url_key},
                       {"label", f.label},
                       {"symbol", f.symbol},
                       {"unit", f.unit},
                       {"help", f.help},
                       {"kind", kind_name(f.kind)},
                       {"choices", choices},
                       {"ui_min", f.ui_min},
                       {"ui_max", f.ui_max},
                       {"default", defaults[std::string(path.substr(0, dot))][std::string(path.substr(dot + 1))]}});
    }
    return dump(out);
}

std::string version_string() { return VRAMCALC_VERSION; }

}  // namespace

// Raw names: only vramcalc.mjs calls these (tests/js/api-surface.test.mjs keeps the list honest).
EMSCRIPTEN_BINDINGS(vramcalc_api) {
    emscripten::function("estimateJson", &estimate_json);
    emscripten::function("validateJson", &validate_json);
    emscripten::function("planJson", &plan_json);
    emscripten::function("encodeLinkJson", &encode_link_json);
    emscripten::function("decodeLinkJson", &decode_link_json);
    emscripten::function("importHfConfigJson", &import_hf_json);
    emscripten::function("importDeepSpeedConfigJson", &import_deepspeed_json);
    emscripten::function("defaultScenarioJson", &default_scenario_json);
    emscripten::function("modelPresetsJson", &model_presets_json);
    emscripten::function("gpuPresetsJson", &gpu_presets_json);
    emscripten::function("fieldsJson", &fields_json);
    emscripten::function("versionString", &version_string);
}
