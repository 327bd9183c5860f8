// vramcalc: the native command. Reads a scenario (JSON file, link fragment, presets, flags),
// prints the estimate as a table (GiB by default) or as JSON (--json).
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli/report.hpp"
#include "codec/codec.hpp"
#include "codec/import_deepspeed.hpp"
#include "codec/import_hf.hpp"
#include "codec/plan_json.hpp"
#include "core/fields.hpp"
#include "core/frameworks.hpp"
#include "core/presets.hpp"
#include "format/markdown.hpp"

namespace {

using namespace vramcalc;

constexpr int exit_invalid = 2;

void print_help() {
    std::cout << "vramcalc: GPU memory and compute for training a transformer.\n\n"
                 "Usage: vramcalc [options] [--FIELD VALUE ...]\n\n"
                 "Input (applied in this order):\n"
                 "  --config FILE        scenario JSON ('-' for stdin); see docs/formulas.md\n"
                 "  --link FRAGMENT      a link fragment (\"v=2&mp=llama-3-8b&b=4\"; v=1 links keep their meaning)\n"
                 "  --hf-config FILE     a Hugging Face config.json: sets the model (docs/imports.md)\n"
                 "  --deepspeed-config FILE  a DeepSpeed config: ZeRO stage, offload, batch sizes, bf16/fp16\n"
                 "                       (imports keep the other fields; flags after them override them;\n"
                 "                       keys they cannot map are listed on stderr as notes)\n"
                 "  --model-preset ID    start from a model preset (--list-presets); the sequence length is lowered\n"
                 "                       to the model's learned positions unless --seq-len is given (a note says so)\n"
                 "  --gpu ID             a GPU preset (or any label)\n"
                 "  --framework NAME     megatron, deepspeed, fsdp, hf, torchtune or generic: sets that stack's\n"
                 "                       kernels, loss, optimizer kernel, precision and sharding (flags after it\n"
                 "                       override them; docs/formulas.md \"Framework profiles\")\n"
                 "  --FIELD VALUE        any field by path or name: --model.layers 80, --hidden-size 8192,\n"
                 "                       --flash-attention (booleans: no value = true, --no-dropout = false)\n"
                 "Output:\n"
                 "  --json               the full estimate as JSON (bytes and FLOPs as numbers)\n"
                 "  --gb                 decimal GB (1e9 bytes) instead of GiB (2^30 bytes)\n"
                 "  --explain            every result with its formula, your inputs and the source\n"
                 "  --markdown           the results as a Markdown table\n"
                 "  --print-link         print the link fragment of the scenario\n"
                 "  --plan               search every layout (t, p, DP, ZeRO, micro-batch, recompute, SP,\n"
                 "                       interleave, offload) for the scenario's model, GPU, GPU count,\n"
                 "                       global batch and sequence; print the fastest that fit\n"
                 "  --plan-top N         how many layouts --plan prints (default 10)\n"
                 "  --plan-hold LIST     keep these at the scenario's values instead of searching them:\n"
                 "                       tensor,recompute,sequence_parallel,zero_stage,interleave,\n"
                 "                       offload_optimizer\n"
                 "  --list-presets       model and GPU presets\n"
                 "  --list-fields        every field with its URL key, unit and meaning\n"
                 "Exit status: 0 ok, 2 invalid input (each problem on stderr, naming the field).\n";
}

void list_presets() {
    std::printf("Models (id: name, parameters as counted, source)\n");
    for (const auto& p : model_presets()) {
        Scenario s;
        s.model = p.model;
        std::printf("  %-16s %-20s %18s  %s\n", p.id, p.model.name.c_str(),
                    format_grouped(estimate(s).parameters.total).c_str(), p.source);
    }
    std::printf("\nGPUs (id: memory GiB, peak dense TFLOP/s, typical achieved TFLOP/s, $/GPU-h, source)\n");
    for (const auto& g : gpu_presets())
        std::printf("  %-10s %7s GiB %8s %7s %7s  %s\n", g.id, format_sig(g.memory_gib, 4).c_str(),
                    format_sig(g.peak_tflops, 5).c_str(), format_sig(g.achieved_tflops, 4).c_str(),
                    format_money(g.price_per_gpu_hour).c_str(), g.source);
}

void list_fields() {
    for (const auto& f : scenario_fields()) {
        std::string choices;
        for (const char* c : f.choices) choices += (choices.empty() ? " [" : "|") + std::string(c);
        if (!choices.empty()) choices += "]";
        std::printf("  %-32s %-7s %s%s%s\n", f.path, f.url_key, f.help, choices.c_str(),
                    *f.unit ? (std::string(" (") + f.unit + ")").c_str() : "");
    }
}

// "--hidden-size" / "--hidden_size" / "--model.hidden_size" -> the field.
const FieldSpec* field_for_flag(std::string name) {
    for (char& c : name)
        if (c == '-') c = '_';
    if (const FieldSpec* f = find_field_by_path(name)) return f;
    for (const auto& f : scenario_fields()) {
        std::string_view path = f.path;
        if (path.substr(path.find('.') + 1) == name) return &f;
    }
    return nullptr;
}

bool read_text(const std::string& path, std::string& out) {
    if (path == "-") {
        out.assign(std::istreambuf_iterator<char>(std::cin), {});
        return true;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    std::ostringstream buffer;
    buffer << in.rdbuf();
    out = buffer.str();
    return true;
}

int report_invalid(const std::vector<ValidationIssue>& issues, bool json) {
    for (const auto& i : issues) std::cerr << "error: " << i.field << ": " << i.message << "\n";
    if (json) std::cout << nlohmann::json{{"errors", codec::issues_to_json(issues)}}.dump(2) << "\n";
    return exit_invalid;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    Scenario scenario;
    std::vector<ValidationIssue> issues;
    std::vector<Note> notes;  // values changed besides what the input named (stderr; JSON "notes")
    bool model_preset_chosen = false, seq_len_given = false;
    bool json = false, decimal_gb = false, print_link = false, explain_terms = false, markdown = false, plan_mode = false;
    int plan_top = 10;
    PlanOptions plan_options;

    for (std::size_t i = 0; i < args.size(); ++i) {
        std::string arg = args[i];
        std::optional<std::string> inline_value;
        if (auto eq = arg.find('='); arg.starts_with("--") && eq != std::string::npos) {
            inline_value = arg.substr(eq + 1);
            arg = arg.substr(0, eq);
        }
        auto take_value = [&](const char* flag) -> std::optional<std::string> {
            if (inline_value) return inline_value;
            if (i + 1 < args.size()) return args[++i];
            issues.push_back({flag, "needs a value"});
            return std::nullopt;
        };
        if (arg == "--help" || arg == "-h") {
            print_help();
            return 0;
        } else if (arg == "--json") {
            json = true;
        } else if (arg == "--gb") {
            decimal_gb = true;
        } else if (arg == "--explain") {
            explain_terms = true;
        } else if (arg == "--markdown") {
            markdown = true;
        } else if (arg == "--print-link") {
            print_link = true;
        } else if (arg == "--plan") {
            plan_mode = true;
        } else if (arg == "--plan-hold") {
            auto value = take_value("--plan-hold");
            if (!value) continue;
            std::stringstream list(*value);
            for (std::string item; std::getline(list, item, ',');) {
                if (!hold_plan_choice(plan_options, item))
                    issues.push_back({"--plan-hold", "unknown choice '" + item + "' (" + plan_hold_names + ")"});
            }
        } else if (arg == "--plan-top") {
            auto value = take_value("--plan-top");
            if (!value) continue;
            char* end = nullptr;
            long n = std::strtol(value->c_str(), &end, 10);
            if (value->empty() || *end != '\0' || n < 1 || n > 1000)
                issues.push_back({"--plan-top", "must be an integer from 1 to 1000 (got '" + *value + "')"});
            else
                plan_top = int(n);
        } else if (arg == "--list-presets") {
            list_presets();
            return 0;
        } else if (arg == "--list-fields") {
            list_fields();
            return 0;
        } else if (arg == "--config") {
            auto path = take_value("--config");
            if (!path) continue;
            std::string text;
            if (!read_text(*path, text)) {
                issues.push_back({"--config", "cannot read file '" + *path + "'"});
                continue;
            }
            // Rules are checked once, after every flag is applied.
            auto decoded = codec::scenario_from_json_text(text, scenario, /*check_rules=*/false);
            scenario = decoded.scenario;
            issues.insert(issues.end(), decoded.issues.begin(), decoded.issues.end());
            notes.insert(notes.end(), decoded.notes.begin(), decoded.notes.end());
        } else if (arg == "--hf-config" || arg == "--deepspeed-config") {
            auto path = take_value(arg.c_str());
            if (!path) continue;
            std::string text;
            if (!read_text(*path, text)) {
                issues.push_back({arg, "cannot read file '" + *path + "'"});
                continue;
            }
            bool hf = arg == "--hf-config";
            auto imported = hf ? codec::import_hf_config(text, scenario) : codec::import_deepspeed_config(text, scenario);
            scenario = imported.scenario;
            std::string label = hf ? "hf-config" : "deepspeed-config";
            for (const auto& note : imported.notes) std::cerr << "note: " << label << ": " << note << "\n";
            for (auto& issue : imported.issues) issues.push_back({label + ": " + issue.field, issue.message});
        } else if (arg == "--link") {
            auto fragment = take_value("--link");
            if (!fragment) continue;
            auto decoded = codec::decode_link(*fragment);
            scenario = decoded.scenario;
            for (auto& issue : decoded.issues) issues.push_back({"link: " + issue.field, issue.message});
            notes.insert(notes.end(), decoded.notes.begin(), decoded.notes.end());
        } else if (arg == "--model-preset" || arg == "--preset") {
            auto id = take_value("--model-preset");
            const ModelPreset* preset = id ? find_model_preset(*id) : nullptr;
            if (preset) set_model_from_preset(scenario, *preset, &notes), model_preset_chosen = true;  // seq_len fitted at the end
            if (id && !preset)
                issues.push_back({"model.preset", "unknown model preset '" + *id + "' (see --list-presets)"});
        } else if (arg == "--gpu" || arg == "--hardware.gpu") {
            auto id = take_value("--gpu");
            if (id && !apply_gpu_preset(scenario, *id)) scenario.hardware.gpu = *id;
        } else if (arg.starts_with("--")) {
            std::string name = arg.substr(2);
            bool negated = false;
            const FieldSpec* field = field_for_flag(name);
            if (!field && name.starts_with("no-")) {
                field = field_for_flag(name.substr(3));
                negated = field && field->kind == FieldKind::boolean;
                if (!negated) field = nullptr;
            }
            if (!field) {
                issues.push_back({arg, "unknown option (see --help and --list-fields)"});
                continue;
            }
            std::string value;
            if (field->kind == FieldKind::boolean && !inline_value) {
                bool next_is_bool = i + 1 < args.size() &&
                                    (args[i + 1] == "1" || args[i + 1] == "0" || args[i + 1] == "true" || args[i + 1] == "false");
                value = next_is_bool ? args[++i] : (negated ? "0" : "1");
            } else {
                auto v = take_value(arg.c_str());
                if (!v) continue;
                value = *v;
            }
            std::string problem = codec::set_field_from_text(scenario, *field, value);
            seq_len_given = seq_len_given || (problem.empty() && std::string_view(field->path) == "training.seq_len");
            // --framework applies its profile like a preset; flags after it override.
            if (problem.empty() && std::string_view(field->path) == "training.framework")
                apply_framework_profile(scenario, scenario.training.framework);
            if (!problem.empty()) issues.push_back({field->path, problem});
        } else {
            issues.push_back({arg, "unexpected argument (see --help)"});
        }
    }

    // A chosen model keeps the sequence it can take, as on the page, unless --seq-len says otherwise.
    if (model_preset_chosen && !seq_len_given) fit_sequence_to_model(scenario, &notes);
    std::vector<ValidationIssue> rules = validate(scenario);
    issues.insert(issues.end(), rules.begin(), rules.end());
    if (!issues.empty()) return report_invalid(issues, json);

    for (const auto& n : notes) std::cerr << "note: " << n.field << ": " << n.message << "\n";
    if (plan_mode) {
        PlanOptions options = plan_options;
        options.max_results = plan_top;
        PlanResult result = plan(scenario, options);
        if (json)
            std::cout << codec::plan_to_json(result).dump(2) << "\n";
        else
            std::cout << cli::format_plan(result, decimal_gb ? ByteUnits::gb : ByteUnits::gib);
        return 0;
    }

    Evaluation evaluation = evaluate(scenario);
    if (print_link) std::cout << codec::encode_link(scenario) << "\n";
    auto units = decimal_gb ? ByteUnits::gb : ByteUnits::gib;
    if (json) {
        std::cout << codec::evaluation_to_json(scenario, evaluation, notes, explain_terms).dump(2) << "\n";
    } else if (markdown) {
        std::cout << estimate_to_markdown(scenario, evaluation.estimate, units, "");
    } else {
        std::cout << cli::format_report(scenario, evaluation.estimate, units);
        if (explain_terms) std::cout << cli::format_explain(explain(scenario, evaluation.estimate), units);
    }
    return 0;
}
