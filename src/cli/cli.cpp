#include "cli/cli.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <optional>
#include <utility>
#include <sstream>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/report.hpp"
#include "codec/codec.hpp"
#include "codec/import_deepspeed.hpp"
#include "codec/import_gguf.hpp"
#include "codec/import_hf.hpp"
#include "codec/plan_json.hpp"
#include "codec/serving_plan_json.hpp"
#include "core/fields.hpp"
#include "core/training/frameworks.hpp"
#include "core/training/planner.hpp"
#include "core/model/presets.hpp"
#include "core/serving/planner.hpp"
#include "format/markdown.hpp"

namespace vramcalc::cli {
namespace {

const char* const help_text =
    "vramcalc: GPU memory and compute for training a transformer.\n\n"
    "Usage: vramcalc [options] [--FIELD VALUE ...]\n\n"
    "Input (applied in this order):\n"
    "  --config FILE        scenario JSON ('-' for stdin); see docs/formulas.md\n"
    "  --link FRAGMENT      a link fragment (\"v=2&mp=llama-3-8b&b=4\"; v=1 links keep their meaning)\n"
    "  --hf-config FILE     a Hugging Face config.json: sets the model (docs/imports.md)\n"
    "  --gguf FILE          a .gguf file: its header (at most 64 MiB read) sets the model, the weight\n"
    "                       format, engine llamacpp and workload inference (docs/imports.md)\n"
    "  --deepspeed-config FILE  a DeepSpeed config: ZeRO stage, offload, batch sizes, bf16/fp16\n"
    "                       (imports keep the other fields; flags after them override them;\n"
    "                       keys they cannot map are listed on stderr as notes)\n"
    "                       (files and stdin: at most 1 MiB is read)\n"
    "  --model-preset ID    start from a model preset (--list-presets); the sequence length is lowered\n"
    "                       to the model's learned positions unless --seq-len is given (a note says so)\n"
    "  --gpu ID             a GPU preset (or any label: UTF-8, at most 200 characters, no control characters)\n"
    "  --framework NAME     megatron, deepspeed, fsdp, hf, torchtune or generic: sets that stack's\n"
    "                       kernels, loss, optimizer kernel, precision and sharding (flags after it\n"
    "                       override them; docs/formulas.md \"Framework profiles\")\n"
    "  --FIELD VALUE        any field by path or name: --model.layers 80, --hidden-size 8192,\n"
    "                       --flash-attention (booleans: no value = true, --no-dropout = false)\n"
    "                       fine-tuning: --method lora|qlora|freeze --lora-rank 16\n"
    "                       --lora-targets q,v (or attention, all_linear) --trainable-layers 4\n"
    "Output:\n"
    "  --json               the full estimate as JSON (bytes and FLOPs as numbers)\n"
    "  --gb                 decimal GB (1e9 bytes) instead of GiB (2^30 bytes)\n"
    "  --explain            every result with its formula, your inputs and the source\n"
    "  --markdown           the results as a Markdown table\n"
    "  --print-link         print the link fragment of the scenario\n"
    "  --plan               search every layout (t, p, DP, ZeRO, micro-batch, recompute, SP,\n"
    "                       interleave, offload; cp from 32k tokens) for the scenario's model, GPU, GPU count,\n"
    "                       global batch and sequence; print the fastest that fit\n"
    "  --plan-top N         how many layouts --plan prints (default 10)\n"
    "  --plan-hold LIST     keep these at the scenario's values instead of searching them:\n"
    "                       tensor,recompute,sequence_parallel,zero_stage,interleave,\n"
    "                       offload_optimizer,context\n"
    "  --workload inference --plan  the inference planner: every GPU preset x tensor parallel\n"
    "                       (pipeline across nodes when one node does not fit) x weight format that\n"
    "                       serves inference.concurrency sequences of inference.context_len, cheapest\n"
    "                       per million output tokens first (docs/serving.md section 7); options:\n"
    "  --plan-tokens-per-second X           aggregate decode tokens/s to reach (raises the concurrency)\n"
    "  --plan-sequence-tokens-per-second X  decode tokens/s each sequence must see\n"
    "  --plan-min-bits X    leave out formats under X bits per weight (default 4)\n"
    "  --plan-max-gpus N    GPUs of one replica at most (default 64)\n"
    "  --plan-gpus LIST     GPU preset ids to search (default: every preset)\n"
    "  --plan-all-engines   every engine, not only inference.engine\n"
    "  --list-presets       model and GPU presets\n"
    "  --list-fields        every field with its URL key, unit and meaning\n"
    "Exit status: 0 ok, 2 invalid input (each problem on stderr, naming the field), 3 internal error.\n";

std::string list_presets() {
    std::string out = "Models (id: name, parameters as counted, source)\n";
    for (const auto& p : model_presets()) {
        Scenario s;
        s.model = p.model;
        out += printf_string("  %-16s %-20s %18s  %s\n", p.id, p.model.name.c_str(),
                             format_grouped(estimate(s).parameters.total).c_str(), p.source);
    }
    out += "\nGPUs (id: memory GiB, peak dense TFLOP/s, typical achieved TFLOP/s, $/GPU-h, source)\n";
    for (const auto& g : gpu_presets())
        out += printf_string("  %-10s %7s GiB %8s %7s %7s  %s\n", g.id, format_sig(g.memory_gib, 4).c_str(),
                             format_sig(g.peak_tflops, 5).c_str(), format_sig(g.achieved_tflops, 4).c_str(),
                             format_money(g.price_per_gpu_hour).c_str(), g.source);
    return out;
}

std::string list_fields() {
    std::string out;
    for (const auto& f : scenario_fields()) {
        std::string choices;
        for (const char* c : f.choices) choices += (choices.empty() ? " [" : "|") + std::string(c);
        if (!choices.empty()) choices += "]";
        out += printf_string("  %-32s %-7s %s%s%s\n", f.path, f.url_key, f.help, choices.c_str(),
                             *f.unit ? (std::string(" (") + f.unit + ")").c_str() : "");
    }
    return out;
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

// User text (an argument, a path) as messages quote it: escaped, at most 120 bytes.
std::string quote_arg(std::string_view text) { return "\"" + codec::excerpt(text, 120) + "\""; }
std::string shown(std::string_view text) { return codec::excerpt(text, 60); }

// Reads a file or stdin, at most max_input_bytes; a problem names the flag.
std::optional<std::string> read_input(const FileReader& read, const std::string& flag, const std::string& path,
                                      std::vector<ValidationIssue>& issues) {
    ReadResult r = read(path, max_input_bytes + 1);
    std::string what = path == "-" ? std::string("standard input") : "file " + quote_arg(path);
    if (!r.ok) {
        issues.push_back({flag, "cannot read " + what + ": " + codec::excerpt(r.problem, 200)});
        return std::nullopt;
    }
    if (r.text.size() > max_input_bytes) {
        issues.push_back({flag, "cannot read " + what + ": it is larger than " + format_grouped(double(max_input_bytes)) +
                                    " bytes (1 MiB); stopped reading there"});
        return std::nullopt;
    }
    return std::move(r.text);
}

// --gguf FILE: the first codec::gguf_second_read bytes (a header is never longer here).
void import_gguf_file(const FileReader& read, const std::string& path, Scenario& scenario,
                      std::vector<ValidationIssue>& issues, std::vector<std::string>& notes) {
    ReadResult file = read(path, codec::gguf_second_read);
    if (!file.ok) {
        issues.push_back({"--gguf", "cannot read file " + quote_arg(path) + ": " + codec::excerpt(file.problem, 200)});
        return;
    }
    auto imported = codec::import_gguf(
        std::span(reinterpret_cast<const std::uint8_t*>(file.text.data()), file.text.size()), scenario);
    scenario = imported.result.scenario;
    for (const auto& note : imported.result.notes) notes.push_back("gguf: " + note);
    for (auto& issue : imported.result.issues)
        issues.push_back({issue.field == "gguf" ? issue.field : "gguf: " + issue.field, issue.message});
}

// One line per item, at most max_printed_lines, then how many more.
template <class Item, class Line>
void print_lines(std::string& to, const std::vector<Item>& items, Line line, const char* more) {
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i == max_printed_lines) {
            to += std::string("… and ") + format_grouped(double(items.size() - i)) + " more " + more + "\n";
            break;
        }
        to += line(items[i]) + "\n";
    }
}

// The inference planner's own flags (--plan-top is shared with the layout planner).
bool serving_plan_flag(std::string_view flag) {
    static constexpr std::string_view flags[] = {"--plan-tokens-per-second", "--plan-sequence-tokens-per-second", "--plan-min-bits",
                                                 "--plan-max-gpus", "--plan-gpus", "--plan-all-engines"};
    return std::find(std::begin(flags), std::end(flags), flag) != std::end(flags);
}

// The core names the planner's options as the JS API does ("options.max_gpus"); the CLI says its flags.
std::string with_flag_names(std::string text) {
    static constexpr std::pair<std::string_view, std::string_view> names[] = {
        {"options.min_sequence_tokens_per_second", "--plan-sequence-tokens-per-second"},
        {"options.min_tokens_per_second", "--plan-tokens-per-second"},
        {"options.min_bits_per_weight", "--plan-min-bits"},
        {"options.max_gpus", "--plan-max-gpus"},
        {"options.max_results", "--plan-top"},
        {"options.gpus", "--plan-gpus"}};
    for (const auto& [option, flag] : names)
        for (std::size_t at = text.find(option); at != std::string::npos; at = text.find(option, at + flag.size()))
            text.replace(at, option.size(), flag);
    return text;
}

// A number flag of the inference planner; ranges are serving_plan_issues()'s.
void set_serving_plan_flag(ServingPlanOptions& o, const std::string& flag, const std::string& value,
                           std::vector<ValidationIssue>& issues) {
    if (flag == "--plan-gpus") {
        std::string_view list = value;
        o.gpus.clear();
        while (true) {
            std::size_t comma = list.find(',');
            o.gpus.emplace_back(list.substr(0, comma));
            if (comma == std::string_view::npos) break;
            list.remove_prefix(comma + 1);
        }
        return;
    }
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(value.c_str(), &end);
    if (value.empty() || errno != 0 || *end != '\0' || !std::isfinite(v)) {
        issues.push_back({flag, "must be a number (got " + quote_arg(value) + ")"});
        return;
    }
    if (flag == "--plan-tokens-per-second") o.min_tokens_per_second = v;
    else if (flag == "--plan-sequence-tokens-per-second") o.min_sequence_tokens_per_second = v;
    else if (flag == "--plan-min-bits") o.min_bits_per_weight = v;
    else if (v != std::floor(v) || v < 1 || v > double(serving_plan_max_gpus))
        issues.push_back({flag, "must be an integer from 1 to " + std::to_string(serving_plan_max_gpus) + " (got " + quote_arg(value) + ")"});
    else o.max_gpus = std::int64_t(v);
}

int report_invalid(Result& r, std::vector<ValidationIssue> issues, bool json) {
    codec::tidy_issues(issues, "input", max_printed_lines);
    for (const auto& i : issues) r.err += "error: " + i.field + ": " + i.message + "\n";
    if (json) {
        r.out += nlohmann::json{{"errors", codec::issues_to_json(issues)}}.dump(
                     2, ' ', false, nlohmann::json::error_handler_t::replace) +
                 "\n";
    }
    return exit_invalid;
}

// What the command line asks for, filled flag by flag.
struct CliOptions {
    Scenario scenario;
    std::vector<ValidationIssue> issues;
    std::vector<Note> notes;  // values changed besides what the input named (stderr; JSON "notes")
    std::vector<std::string> import_notes;
    bool model_preset_chosen = false, seq_len_given = false, context_given = false;
    bool json = false, decimal_gb = false, print_link = false, explain_terms = false, markdown = false, plan_mode = false;
    int plan_top = 10;
    PlanOptions plan_options;
    ServingPlanOptions serving_options;
    std::vector<std::string> serving_flags;  // the inference planner's flags given (they need --workload inference --plan)
};

// One argument being read: its name, the value given inline ("--flag=value"), and the ones after it.
struct ArgCursor {
    const std::vector<std::string>& args;
    std::size_t& i;
    std::vector<ValidationIssue>& issues;
    std::string arg;
    std::optional<std::string> inline_value;

    std::optional<std::string> take_value(const std::string& flag) {
        if (inline_value) return inline_value;
        if (i + 1 < args.size()) return args[++i];
        issues.push_back({shown(flag), "needs a value"});
        return std::nullopt;
    }
};

// The text --help, --list-presets or --list-fields prints; nullopt for any other argument.
std::optional<std::string> info_text(const std::string& arg) {
    if (arg == "--help" || arg == "-h") return std::string(help_text);
    if (arg == "--list-presets") return list_presets();
    if (arg == "--list-fields") return list_fields();
    return std::nullopt;
}

// The output switches (--json, --gb, --explain, --markdown, --print-link, --plan); false for others.
bool apply_output_switch(const std::string& arg, CliOptions& o) {
    if (arg == "--json") {
        o.json = true;
    } else if (arg == "--gb") {
        o.decimal_gb = true;
    } else if (arg == "--explain") {
        o.explain_terms = true;
    } else if (arg == "--markdown") {
        o.markdown = true;
    } else if (arg == "--print-link") {
        o.print_link = true;
    } else if (arg == "--plan") {
        o.plan_mode = true;
    } else {
        return false;
    }
    return true;
}

// The planners' flags (--plan-hold, the inference planner's --plan-*, --plan-top); false for others.
bool apply_plan_flag(ArgCursor& a, CliOptions& o) {
    const std::string& arg = a.arg;
    auto& issues = o.issues;
    if (arg == "--plan-hold") {
        auto value = a.take_value("--plan-hold");
        if (!value) return true;
        std::string_view list = *value;
        while (true) {
            std::size_t comma = list.find(',');
            std::string_view item = list.substr(0, comma);
            if (!hold_plan_choice(o.plan_options, item))
                issues.push_back({"--plan-hold", "unknown choice " + quote_arg(item) + " (" + plan_hold_names + ")"});
            if (comma == std::string_view::npos) break;
            list.remove_prefix(comma + 1);
        }
    } else if (arg.starts_with("--plan-") && serving_plan_flag(arg)) {
        o.serving_flags.push_back(arg);
        if (arg == "--plan-all-engines") {
            o.serving_options.all_engines = true;
            return true;
        }
        auto value = a.take_value(arg);
        if (value) set_serving_plan_flag(o.serving_options, arg, *value, issues);
    } else if (arg == "--plan-top") {
        auto value = a.take_value("--plan-top");
        if (!value) return true;
        char* end = nullptr;
        errno = 0;
        long n = std::strtol(value->c_str(), &end, 10);
        bool digits = !value->empty() && value->find_first_not_of("0123456789") == std::string::npos;
        if (!digits || errno != 0 || *end != '\0' || n < 1 || n > 1000)
            issues.push_back({"--plan-top", "must be an integer from 1 to 1000 (got " + quote_arg(*value) + ")"});
        else
            o.plan_top = int(n);
    } else {
        return false;
    }
    return true;
}

// The input flags (--config, --hf-config, --deepspeed-config, --gguf, --link, --model-preset, --gpu);
// false for others.
bool apply_input_flag(ArgCursor& a, const FileReader& read, CliOptions& o) {
    const std::string& arg = a.arg;
    auto& scenario = o.scenario;
    auto& issues = o.issues;
    auto& notes = o.notes;
    if (arg == "--config") {
        auto path = a.take_value("--config");
        if (!path) return true;
        auto text = read_input(read, "--config", *path, issues);
        if (!text) return true;
        // Rules are checked once, after every flag is applied.
        auto decoded = codec::scenario_from_json_text(*text, scenario, /*check_rules=*/false);
        scenario = decoded.scenario;
        o.context_given = o.context_given || scenario.workload == Workload::inference;  // the decoder fitted it
        issues.insert(issues.end(), decoded.issues.begin(), decoded.issues.end());
        notes.insert(notes.end(), decoded.notes.begin(), decoded.notes.end());
    } else if (arg == "--hf-config" || arg == "--deepspeed-config") {
        auto path = a.take_value(arg);
        if (!path) return true;
        auto text = read_input(read, arg, *path, issues);
        if (!text) return true;
        bool hf = arg == "--hf-config";
        auto imported = hf ? codec::import_hf_config(*text, scenario) : codec::import_deepspeed_config(*text, scenario);
        scenario = imported.scenario;
        std::string label = hf ? "hf-config" : "deepspeed-config";
        for (const auto& note : imported.notes) o.import_notes.push_back(label + ": " + note);
        for (auto& issue : imported.issues) issues.push_back({label + ": " + issue.field, issue.message});
    } else if (arg == "--gguf") {
        auto path = a.take_value(arg);
        if (!path) return true;
        import_gguf_file(read, *path, scenario, issues, o.import_notes);
    } else if (arg == "--link") {
        auto fragment = a.take_value("--link");
        if (!fragment) return true;
        auto decoded = codec::decode_link(*fragment);
        scenario = decoded.scenario;
        o.context_given = o.context_given || scenario.workload == Workload::inference;  // the decoder fitted it
        for (auto& issue : decoded.issues) issues.push_back({"link: " + issue.field, issue.message});
        notes.insert(notes.end(), decoded.notes.begin(), decoded.notes.end());
    } else if (arg == "--model-preset" || arg == "--preset") {
        auto id = a.take_value("--model-preset");
        const ModelPreset* preset = id ? find_model_preset(*id) : nullptr;
        if (preset) set_model_from_preset(scenario, *preset, &notes), o.model_preset_chosen = true;  // seq_len fitted at the end
        if (id && !preset)
            issues.push_back({"model.preset", "unknown model preset " + quote_arg(*id) + " (see --list-presets)"});
    } else if (arg == "--gpu" || arg == "--hardware.gpu") {
        // A preset id, or a label under the rules of every text field (validate() checks it).
        auto id = a.take_value("--gpu");
        if (id && !apply_gpu_preset(scenario, *id)) scenario.hardware.gpu = *id;
    } else {
        return false;
    }
    return true;
}

// Any scenario field by path or name ("--model.layers 80", "--flash-attention", "--no-dropout").
void apply_field_flag(ArgCursor& a, CliOptions& o) {
    const std::string& arg = a.arg;
    const auto& args = a.args;
    std::size_t& i = a.i;
    auto& scenario = o.scenario;
    auto& issues = o.issues;
    std::string name = arg.substr(2);
    bool negated = false;
    const FieldSpec* field = field_for_flag(name);
    if (!field && name.starts_with("no-")) {
        field = field_for_flag(name.substr(3));
        negated = field && field->kind == FieldKind::boolean;
        if (!negated) field = nullptr;
    }
    if (!field) {
        issues.push_back({shown(arg), "unknown option (see --help and --list-fields)"});
        return;
    }
    std::string value;
    if (field->kind == FieldKind::boolean && !a.inline_value) {
        bool next_is_bool = i + 1 < args.size() && (args[i + 1] == "1" || args[i + 1] == "0" ||
                                                    args[i + 1] == "true" || args[i + 1] == "false");
        value = next_is_bool ? args[++i] : (negated ? "0" : "1");
    } else {
        auto v = a.take_value(arg);
        if (!v) return;
        value = *v;
    }
    std::string problem = codec::set_field_from_text(scenario, *field, value);
    o.seq_len_given = o.seq_len_given || (problem.empty() && std::string_view(field->path) == "training.seq_len");
    o.context_given = o.context_given || (problem.empty() && std::string_view(field->path) == "inference.context_len");
    // --framework applies its profile like a preset; flags after it override.
    if (problem.empty() && std::string_view(field->path) == "training.framework")
        apply_framework_profile(scenario, scenario.training.framework);
    if (!problem.empty()) issues.push_back({field->path, problem});
}

// Reads every argument into `o`; an exit code when one ends the run (--help, --list-*).
std::optional<int> read_args(const std::vector<std::string>& args, const FileReader& read, CliOptions& o, Result& r) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        ArgCursor a{args, i, o.issues, args[i], std::nullopt};
        std::string& arg = a.arg;
        std::optional<std::string>& inline_value = a.inline_value;
        if (auto eq = arg.find('='); arg.starts_with("--") && eq != std::string::npos) {
            inline_value = arg.substr(eq + 1);
            arg = arg.substr(0, eq);
        }
        // The CLI's own switches take no value: "--list-presets=0" is a mistake, not --list-presets.
        static constexpr std::string_view switches[] = {"--help", "--json", "--gb", "--explain", "--markdown",
                                                        "--print-link", "--plan", "--plan-all-engines", "--list-presets",
                                                        "--list-fields"};
        if (inline_value && std::find(std::begin(switches), std::end(switches), arg) != std::end(switches)) {
            o.issues.push_back({shown(arg), "takes no value (got " + quote_arg(*inline_value) + ")"});
            continue;
        }
        if (auto text = info_text(arg)) {
            r.out += *text;
            return exit_ok;
        }
        if (apply_output_switch(arg, o) || apply_plan_flag(a, o) || apply_input_flag(a, read, o)) continue;
        if (arg.starts_with("--")) apply_field_flag(a, o);
        else o.issues.push_back({shown(arg), "unexpected argument (see --help)"});
    }
    return std::nullopt;
}

// What every run prints before its result: the notes (stderr) and, with --print-link, the link
// as the first line of its output.
void print_notes_and_link(const CliOptions& o, Result& r) {
    print_lines(r.err, o.notes, [](const Note& n) { return "note: " + n.field + ": " + n.message; }, "notes");
    if (o.print_link) r.out += codec::encode_link(o.scenario) + "\n";
}

// JSON as the command prints it: indented by two, invalid UTF-8 replaced, one line.
std::string json_text(const nlohmann::json& j) {
    return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

ByteUnits byte_units(const CliOptions& o) { return o.decimal_gb ? ByteUnits::gb : ByteUnits::gib; }

// A planner's run: its rules (any broken one is invalid input), the notes and link, then its
// ranked layouts from `search()` as JSON (`to_json`) or text (`to_text`).
template <class Search, class ToJson, class ToText>
int run_planner(CliOptions& o, Result& r, std::vector<ValidationIssue> rules, Search search, ToJson to_json,
                ToText to_text) {
    if (!rules.empty()) return report_invalid(r, std::move(rules), o.json);
    print_notes_and_link(o, r);
    const auto result = search();
    r.out += o.json ? json_text(to_json(result)) : to_text(result);
    return exit_ok;
}

// --workload inference --plan: the inference planner's ranked layouts.
int run_serving_plan(CliOptions& o, Result& r) {
    o.serving_options.max_results = o.plan_top;
    std::vector<ValidationIssue> rules = serving_plan_issues(o.scenario, o.serving_options);
    for (auto& issue : rules) issue.field = with_flag_names(issue.field);
    auto search = [&] {
        ServingPlanResult result = serving_plan(o.scenario, o.serving_options);
        result.message = with_flag_names(result.message);
        return result;
    };
    auto to_text = [&](const ServingPlanResult& result) {
        return format_serving_plan(o.scenario, result, byte_units(o));
    };
    return run_planner(o, r, std::move(rules), search, codec::serving_plan_to_json, to_text);
}

// --plan: the training planner's ranked layouts.
int run_plan(CliOptions& o, Result& r) {
    o.plan_options.max_results = o.plan_top;
    // The planner's rules, as the JS API's plan() asks them: the layout is searched, not checked.
    std::vector<ValidationIssue> rules = plan_issues(o.scenario, o.plan_options);
    auto search = [&] { return plan(o.scenario, o.plan_options); };
    auto to_text = [&](const PlanResult& result) { return format_plan(result, byte_units(o)); };
    return run_planner(o, r, std::move(rules), search, codec::plan_to_json, to_text);
}

// The estimate of one scenario: report, Markdown or JSON.
int run_estimate(CliOptions& o, Result& r) {
    const Scenario& scenario = o.scenario;
    Evaluation evaluation = evaluate(scenario);
    if (!evaluation.ok()) return report_invalid(r, evaluation.errors, o.json);
    print_notes_and_link(o, r);
    if (o.json) {
        r.out += json_text(codec::evaluation_to_json(scenario, evaluation, o.notes, o.explain_terms));
    } else if (o.markdown) {
        r.out += estimate_to_markdown(scenario, evaluation.estimate, byte_units(o), "");
    } else {
        r.out += format_report(scenario, evaluation.estimate, byte_units(o));
        if (o.explain_terms) r.out += format_explain(explain(scenario, evaluation.estimate), byte_units(o));
    }
    return exit_ok;
}

int run_unguarded(const std::vector<std::string>& args, const FileReader& read, Result& r) {
    CliOptions o;
    if (auto done = read_args(args, read, o, r)) return *done;
    auto& scenario = o.scenario;
    auto& issues = o.issues;
    print_lines(r.err, o.import_notes, [](const std::string& n) { return "note: " + n; }, "notes");
    // A chosen model keeps the sequence it can take, as on the page, unless --seq-len says otherwise.
    if (o.model_preset_chosen && !o.seq_len_given) fit_sequence_to_model(scenario, &o.notes);
    if (!o.context_given) fit_context_to_model(scenario, &o.notes);  // and the context it can serve
    const bool serving_plan_mode = o.plan_mode && scenario.workload == Workload::inference;
    if (!o.serving_flags.empty() && !serving_plan_mode)
        issues.push_back({o.serving_flags.front(), "is an option of the inference planner: add --workload inference --plan"});
    if (issues.empty() && serving_plan_mode) return run_serving_plan(o, r);
    if (issues.empty() && o.plan_mode) return run_plan(o, r);
    if (issues.empty()) return run_estimate(o, r);
    std::vector<ValidationIssue> rules = validate(scenario);
    issues.insert(issues.end(), rules.begin(), rules.end());
    return report_invalid(r, std::move(issues), o.json);
}

}  // namespace

ReadResult read_file(const std::string& path, std::size_t limit) {
    ReadResult r;
    bool from_stdin = path == "-";
    int fd = from_stdin ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        r.problem = std::strerror(errno);
        return r;
    }
    struct stat info {};
    if (::fstat(fd, &info) == 0 && S_ISDIR(info.st_mode)) {
        r.problem = "it is a directory";
    } else {
        r.ok = true;
        char buffer[65536];
        while (r.text.size() < limit) {
            ssize_t n = ::read(fd, buffer, std::min(sizeof buffer, limit - r.text.size()));
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) {
                r.ok = false;
                r.problem = std::strerror(errno);
                break;
            }
            if (n == 0) break;
            r.text.append(buffer, std::size_t(n));
        }
    }
    if (!from_stdin) ::close(fd);
    return r;
}

Result run(const std::vector<std::string>& args, const FileReader& read) {
    Result r;
    try {
        r.exit_code = run_unguarded(args, read, r);
    } catch (const std::exception& e) {
        r.exit_code = exit_internal_error;
        r.err += "error: internal error (please report it with the command line): " + codec::excerpt(e.what(), 200) + "\n";
    } catch (...) {
        r.exit_code = exit_internal_error;
        r.err += "error: internal error (please report it with the command line)\n";
    }
    return r;
}

}  // namespace vramcalc::cli
