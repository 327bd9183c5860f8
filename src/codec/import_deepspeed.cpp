// DeepSpeed config JSON → Scenario.training / Scenario.parallel. Mapping table: docs/imports.md.
#include "import_deepspeed.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>

#include "codec/scenario_json.hpp"
#include "codec/numbers.hpp"
#include "codec/text.hpp"

namespace vramcalc::codec {

using nlohmann::json;

namespace {

constexpr std::int64_t max_batch = 1'000'000'000;  // validate(): training batch fields
constexpr double max_live_params = 1e16;            // validate(): parallel.zero3_live_params
constexpr double deepspeed_default_live_params = 1e9;  // DeepSpeed stage3_max_live_parameters default

// Keys whose value changes nothing this estimator models (logging, schedules, loss scaling, ...).
constexpr const char* no_effect_keys[] = {
    "steps_per_print", "wall_clock_breakdown", "gradient_clipping", "scheduler", "optimizer.params",
    "tensorboard", "wandb", "csv_monitor", "comet", "flops_profiler", "comms_logger", "dump_state",
    "prescale_gradients", "gradient_predivide_factor", "zero_allow_untested_optimizer", "seed",
    "fp16.loss_scale", "fp16.initial_scale_power", "fp16.loss_scale_window", "fp16.hysteresis",
    "fp16.consecutive_hysteresis", "fp16.min_loss_scale", "fp16.auto_cast",
    "zero_optimization.elastic_checkpoint", "zero_optimization.ignore_unused_parameters",
    "zero_optimization.load_from_fp32_weights", "zero_optimization.round_robin_gradients",
    "zero_optimization.stage3_gather_16bit_weights_on_model_save",
    "zero_optimization.stage3_gather_fp16_weights_on_model_save",
    "zero_optimization.offload_optimizer.pin_memory", "zero_optimization.offload_optimizer.nvme_path",
    "zero_optimization.offload_optimizer.fast_init", "activation_checkpointing.profile",
    "activation_checkpointing.synchronize_checkpoint_boundary", "communication_data_type",
};

bool is_auto(const json& v) { return v.is_string() && v.get_ref<const std::string&>() == "auto"; }

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

struct Reader {
    ImportResult& r;
    std::vector<std::string> consumed;  // dotted paths

    void issue(const std::string& key, std::string message) { r.issues.push_back({key, std::move(message)}); }
    void note_auto(const std::string& key, const std::string& kept) {
        r.notes.push_back(key + " is \"auto\" (the Hugging Face Trainer fills it in at run time): kept " + kept);
    }

    // The value at obj[key] (path is the dotted name used in messages); marks it consumed.
    const json* get(const json& obj, const char* key, const std::string& path) {
        if (!obj.is_object()) return nullptr;
        auto it = obj.find(key);
        if (it == obj.end()) return nullptr;
        consumed.push_back(path);
        return it->is_null() ? nullptr : &*it;
    }

    // An integer in [lo, hi]; "auto" → nullopt with *was_auto = true.
    std::optional<std::int64_t> integer(const json& obj, const char* key, const std::string& path, std::int64_t lo,
                                        std::int64_t hi, bool* was_auto) {
        const json* v = get(obj, key, path);
        if (!v) return std::nullopt;
        if (is_auto(*v)) {
            if (was_auto) *was_auto = true;
            return std::nullopt;
        }
        double value = 0;
        if (v->is_number_unsigned()) value = v->get<std::uint64_t>() > std::uint64_t(hi) ? double(hi) + 1 : double(v->get<std::uint64_t>());
        else if (v->is_number_integer()) value = double(v->get<std::int64_t>());
        else if (v->is_number_float()) value = v->get<double>();
        else {
            issue(path, "must be an integer (got " + describe_json(*v) + ")");
            return std::nullopt;
        }
        if (!std::isfinite(value) || value != std::floor(value)) {
            issue(path, "must be an integer (got " + describe_json(*v) + ")");
            return std::nullopt;
        }
        if (value < double(lo) || value > double(hi)) {
            issue(path, "must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + " (got " +
                            describe_json(*v) + ")");
            return std::nullopt;
        }
        return static_cast<std::int64_t>(value);
    }

    std::optional<bool> boolean(const json& obj, const char* key, const std::string& path, bool* was_auto) {
        const json* v = get(obj, key, path);
        if (!v) return std::nullopt;
        if (is_auto(*v)) {
            if (was_auto) *was_auto = true;
            return std::nullopt;
        }
        if (!v->is_boolean()) {
            issue(path, "must be true or false (got " + describe_json(*v) + ")");
            return std::nullopt;
        }
        return v->get<bool>();
    }

    // A section that must be an object; nullptr (and an issue) otherwise.
    const json* section(const json& obj, const char* key, const std::string& path) {
        const json* v = get(obj, key, path);
        if (!v) return nullptr;
        if (!v->is_object()) {
            issue(path, "must be an object {...} (got " + describe_json(*v) + ")");
            return nullptr;
        }
        return v;
    }

    bool was_consumed(const std::string& path) const {
        return std::find(consumed.begin(), consumed.end(), path) != consumed.end();
    }
};

// Lists every key of `obj` (recursing into `known_sections`) that was not consumed.
void collect_unmapped(const Reader& in, const json& obj, const std::string& prefix, std::vector<std::string>& no_effect,
                      std::vector<std::string>& not_modelled, std::size_t& not_listed) {
    static const char* const known_sections[] = {"zero_optimization", "zero_optimization.offload_optimizer", "bf16",
                                                 "bfloat16", "fp16", "amp", "optimizer", "activation_checkpointing",
                                                 "data_types"};
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        std::string path = prefix.empty() ? it.key() : prefix + "." + it.key();
        bool is_known_section = it->is_object() && std::any_of(std::begin(known_sections), std::end(known_sections),
                                                               [&](const char* s) { return path == s; });
        if (is_known_section && in.was_consumed(path)) {
            collect_unmapped(in, *it, path, no_effect, not_modelled, not_listed);
            continue;
        }
        if (in.was_consumed(path)) continue;
        if (no_effect.size() + not_modelled.size() >= detail::max_listed_keys) {
            ++not_listed;
            continue;
        }
        std::string shown = detail::printable_key(path);
        bool harmless = std::any_of(std::begin(no_effect_keys), std::end(no_effect_keys),
                                    [&](const char* k) { return path == k; });
        (harmless ? no_effect : not_modelled).push_back(shown.empty() ? "(empty key)" : shown);
    }
}

// DeepSpeed offloads optimizer states only with ZeRO stages 1-3 (deepspeed/runtime/zero/config.py,
// offload_optimizer: "Valid for ZeRO stage 1, 2, 3"; validate() holds the same rule): a stage-0
// config that asks for it is reported, and nothing is offloaded.
void report_offload_without_zero(Reader& in, const json& zero, ParallelConfig& par) {
    if (!par.offload_optimizer || par.zero_stage != 0) return;
    const bool legacy = !zero.contains("offload_optimizer");
    if (legacy && !zero.contains("cpu_offload")) return;  // kept from the base scenario, not asked for here
    in.issue(legacy ? "zero_optimization.cpu_offload" : "zero_optimization.offload_optimizer.device",
             "needs zero_optimization.stage 1, 2 or 3: DeepSpeed offloads optimizer states only with ZeRO (the stage is 0)");
    par.offload_optimizer = false;
}

std::string join(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
    return out;
}

// training.precision from the bf16 / fp16 / amp sections, training.grad_dtype from data_types.
void read_precision(Reader& in, const json& config, TrainingConfig& tr) {
    ImportResult& r = in.r;
    // ── precision: bf16 / fp16 / amp sections (DeepSpeed: enabled defaults to false) ──
    bool any_auto = false, bf16 = false, fp16 = false, amp = false;
    const char* bf16_key = config.contains("bf16") ? "bf16" : "bfloat16";  // "bfloat16": DeepSpeed's old name
    if (const json* s = in.section(config, bf16_key, bf16_key)) {
        bool a = false;
        bf16 = in.boolean(*s, "enabled", std::string(bf16_key) + ".enabled", &a).value_or(false);
        if (a) in.note_auto(std::string(bf16_key) + ".enabled", "training.precision");
        any_auto |= a;
    }
    if (const json* s = in.section(config, "fp16", "fp16")) {
        bool a = false;
        fp16 = in.boolean(*s, "enabled", "fp16.enabled", &a).value_or(false);
        if (a) in.note_auto("fp16.enabled", "training.precision");
        any_auto |= a;
    }
    if (const json* s = in.section(config, "amp", "amp")) {
        bool a = false;
        amp = in.boolean(*s, "enabled", "amp.enabled", &a).value_or(false);
        if (a) in.note_auto("amp.enabled", "training.precision");
        any_auto |= a;
    }
    if (bf16 && (fp16 || amp)) {
        in.issue(std::string(bf16_key) + ".enabled", std::string("and ") + (fp16 ? "fp16.enabled" : "amp.enabled") +
                                                         " are both true; DeepSpeed allows only one");
    } else if (bf16) {
        tr.precision = Precision::mixed_bf16;
    } else if (fp16) {
        tr.precision = Precision::mixed_fp16;
    } else if (amp) {
        tr.precision = Precision::mixed_fp16;
        r.notes.push_back("amp.enabled (NVIDIA Apex AMP) counted as mixed_fp16");
    } else if (!any_auto) {
        tr.precision = Precision::fp32;
        r.notes.push_back("neither bf16.enabled nor fp16.enabled is true: DeepSpeed trains in fp32 (training.precision = fp32)");
    }
    if (const json* s = in.section(config, "data_types", "data_types")) {
        if (const json* v = in.get(*s, "grad_accum_dtype", "data_types.grad_accum_dtype")) {
            if (is_auto(*v)) in.note_auto("data_types.grad_accum_dtype", "training.grad_dtype");
            else if (!v->is_string()) in.issue("data_types.grad_accum_dtype", "must be \"fp32\", \"fp16\" or \"bf16\" (got " + describe_json(*v) + ")");
            else if (lower(v->get_ref<const std::string&>()) == "fp32") tr.grad_dtype = GradDtype::fp32;
            else if (auto t = lower(v->get_ref<const std::string&>()); t == "fp16" || t == "bf16") tr.grad_dtype = GradDtype::match;
            else in.issue("data_types.grad_accum_dtype", "must be \"fp32\", \"fp16\" or \"bf16\" (got " + describe_json(*v) + ")");
        }
    }
}

struct ZeroStage {
    int stage = 0;
    bool known = true;  // false: "auto", invalid or null (parallel.zero_stage kept)
    const json* zero = nullptr;  // the zero_optimization object, if it is one
};

// parallel.zero_stage from zero_optimization (object or deprecated boolean form).
ZeroStage read_zero_stage(Reader& in, const json& config, ParallelConfig& par) {
    ImportResult& r = in.r;
    int stage = 0;
    bool stage_known = true;
    const json* zero = nullptr;
    if (auto it = config.find("zero_optimization"); it != config.end() && it->is_boolean()) {
        in.consumed.push_back("zero_optimization");
        stage = it->get<bool>() ? 1 : 0;  // deprecated boolean form: true = stage 1
        r.notes.push_back("zero_optimization given as a boolean (deprecated DeepSpeed form): stage " + std::to_string(stage));
    } else if ((zero = in.section(config, "zero_optimization", "zero_optimization"))) {
        bool a = false;
        auto st = in.integer(*zero, "stage", "zero_optimization.stage", 0, 3, &a);
        if (a) {
            stage_known = false;
            stage = par.zero_stage;
            in.note_auto("zero_optimization.stage", "parallel.zero_stage = " + std::to_string(par.zero_stage));
        } else if (st) {
            stage = int(*st);
        } else if (!zero->contains("stage")) {
            r.notes.push_back("zero_optimization.stage not given: DeepSpeed's default 0");
        } else if ((*zero)["stage"].is_null()) {
            // DeepSpeed's ZeRO config types stage as 0-3 (pydantic rejects null). [deepspeed/runtime/zero/config.py]
            stage_known = false;
            in.issue("zero_optimization.stage", "must be an integer from 0 to 3 (got null)");
        } else {
            stage_known = false;  // invalid: reported
        }
    } else if (!config.contains("zero_optimization")) {
        r.notes.push_back("no zero_optimization section: DeepSpeed's default ZeRO stage 0");
    } else {
        stage_known = false;
    }
    if (stage_known) par.zero_stage = stage;
    return {stage, stage_known, zero};
}

// Optimizer offload and stage-3 live parameters from the zero_optimization object.
void read_zero_options(Reader& in, const json* zero, int stage, bool stage_known, ParallelConfig& par) {
    ImportResult& r = in.r;
    if (zero) {
        if (const json* off = in.section(*zero, "offload_optimizer", "zero_optimization.offload_optimizer")) {
            if (const json* d = in.get(*off, "device", "zero_optimization.offload_optimizer.device")) {
                std::string device = d->is_string() ? lower(d->get_ref<const std::string&>()) : "";
                if (is_auto(*d)) in.note_auto("zero_optimization.offload_optimizer.device", "parallel.offload_optimizer");
                else if (device == "cpu") par.offload_optimizer = true;
                else if (device == "nvme") {
                    par.offload_optimizer = true;
                    r.notes.push_back("offload_optimizer.device nvme: optimizer states leave the GPU (counted as host-side "
                                      "memory; NVMe is not modelled separately)");
                } else if (device == "none") par.offload_optimizer = false;
                else in.issue("zero_optimization.offload_optimizer.device",
                              "must be \"cpu\", \"nvme\" or \"none\" (got " + describe_json(*d) + ")");
            } else {
                par.offload_optimizer = false;  // DeepSpeed's default device is "none"
                r.notes.push_back("zero_optimization.offload_optimizer.device not given: DeepSpeed's default \"none\"");
            }
        } else if (!zero->contains("offload_optimizer")) {
            bool a = false;
            if (auto legacy = in.boolean(*zero, "cpu_offload", "zero_optimization.cpu_offload", &a)) {
                par.offload_optimizer = *legacy;  // deprecated spelling of offload_optimizer.device = "cpu"
            } else if (a) {
                in.note_auto("zero_optimization.cpu_offload", "parallel.offload_optimizer");
            } else {
                par.offload_optimizer = false;  // no offload section: nothing is offloaded
            }
        }
        report_offload_without_zero(in, *zero, par);
        // stage3_max_live_parameters (newer DeepSpeed also accepts max_live_parameters).
        const char* live_key = zero->contains("stage3_max_live_parameters") ? "stage3_max_live_parameters"
                                                                             : "max_live_parameters";
        std::string live_path = std::string("zero_optimization.") + live_key;
        if (const json* v = in.get(*zero, live_key, live_path)) {
            if (is_auto(*v)) {
                in.note_auto(live_path, "parallel.zero3_live_params");
            } else if (!v->is_number() || !std::isfinite(v->get<double>()) || v->get<double>() < 0 ||
                       v->get<double>() > max_live_params) {
                in.issue(live_path, "must be a number from 0 to 1e16 (got " + describe_json(*v) + ")");
            } else {
                par.zero3_live_params = v->get<double>();
                if (stage != 3) r.notes.push_back(live_path + " is used only with ZeRO stage 3");
            }
        } else if (stage == 3 && stage_known) {
            par.zero3_live_params = deepspeed_default_live_params;
            r.notes.push_back("stage3_max_live_parameters not given: DeepSpeed's default 1e9 (parallel.zero3_live_params)");
        }
    } else if (stage_known) {
        par.offload_optimizer = false;  // no zero_optimization object: nothing is offloaded
        if (stage == 3) par.zero3_live_params = deepspeed_default_live_params;
    }
}

// training.global_batch_size / micro_batch_size / grad_accum_steps by DeepSpeed's rules.
void read_batch_sizes(Reader& in, const json& config, TrainingConfig& tr, const ParallelConfig& par) {
    ImportResult& r = in.r;
    // ── batch sizes (DeepSpeed's _set_batch_related_parameters) ──
    bool tb_auto = false, mb_auto = false, gas_auto = false;
    auto tb = in.integer(config, "train_batch_size", "train_batch_size", 1, max_batch, &tb_auto);
    auto mb = in.integer(config, "train_micro_batch_size_per_gpu", "train_micro_batch_size_per_gpu", 1, max_batch, &mb_auto);
    auto gas = in.integer(config, "gradient_accumulation_steps", "gradient_accumulation_steps", 1, max_batch, &gas_auto);
    if (tb_auto) in.note_auto("train_batch_size", "training.global_batch_size = " + std::to_string(tr.global_batch_size));
    if (mb_auto) in.note_auto("train_micro_batch_size_per_gpu", "training.micro_batch_size = " + std::to_string(tr.micro_batch_size));
    if (gas_auto) in.note_auto("gradient_accumulation_steps", "training.grad_accum_steps = " + std::to_string(tr.grad_accum_steps));
    // DeepSpeed's world size is the data-parallel degree; taken from base's layout (0 if it has none).
    std::int64_t dp = 0;
    if (par.num_gpus > 0 && par.tensor > 0 && par.pipeline > 0 && par.num_gpus % (par.tensor * par.pipeline) == 0)
        dp = par.num_gpus / (par.tensor * par.pipeline);
    auto micro_from = [&](std::int64_t total, std::int64_t steps) {
        if (dp > 0 && total % (steps * dp) == 0) {
            tr.micro_batch_size = total / (steps * dp);
        } else {
            r.notes.push_back("train_batch_size " + std::to_string(total) + " is not a multiple of gradient accumulation (" +
                              std::to_string(steps) + ") × data-parallel degree (" + std::to_string(dp) +
                              "); kept training.micro_batch_size = " + std::to_string(tr.micro_batch_size));
        }
    };
    {
        if (tb && mb && gas) {
            tr.global_batch_size = *tb, tr.micro_batch_size = *mb, tr.grad_accum_steps = *gas;
        } else if (tb && mb) {
            tr.global_batch_size = *tb, tr.micro_batch_size = *mb, tr.grad_accum_steps = 0;
        } else if (tb && gas) {
            tr.global_batch_size = *tb, tr.grad_accum_steps = *gas;
            micro_from(*tb, *gas);
        } else if (mb && gas) {
            tr.micro_batch_size = *mb, tr.grad_accum_steps = *gas, tr.global_batch_size = 0;
        } else if (tb) {
            tr.global_batch_size = *tb, tr.grad_accum_steps = 1;
            micro_from(*tb, 1);
            r.notes.push_back("only train_batch_size given: DeepSpeed sets gradient_accumulation_steps = 1");
        } else if (mb) {
            tr.micro_batch_size = *mb, tr.grad_accum_steps = 1, tr.global_batch_size = 0;
            if (!gas_auto) r.notes.push_back("only train_micro_batch_size_per_gpu given: DeepSpeed sets gradient_accumulation_steps = 1");
        } else if (gas) {
            tr.grad_accum_steps = *gas, tr.global_batch_size = 0;
            r.notes.push_back("gradient_accumulation_steps without train_batch_size or train_micro_batch_size_per_gpu "
                              "(DeepSpeed needs one of them): kept training.micro_batch_size = " +
                              std::to_string(tr.micro_batch_size));
        } else if (!config.contains("train_batch_size") && !config.contains("train_micro_batch_size_per_gpu") &&
                   !config.contains("gradient_accumulation_steps")) {
            r.notes.push_back("no batch size given: kept the scenario's batch settings");
        }
    }
}

// training.optimizer from optimizer.type.
void read_optimizer(Reader& in, const json& config, TrainingConfig& tr) {
    ImportResult& r = in.r;
    if (const json* opt = in.section(config, "optimizer", "optimizer")) {
        if (const json* t = in.get(*opt, "type", "optimizer.type")) {
            if (is_auto(*t)) in.note_auto("optimizer.type", "training.optimizer");
            else if (!t->is_string()) in.issue("optimizer.type", "must be a string such as \"AdamW\" (got " + describe_json(*t) + ")");
            else if (auto name = lower(t->get_ref<const std::string&>()); name == "adam" || name == "adamw") tr.optimizer = Optimizer::adamw;
            else {
                r.unmapped_keys.push_back("optimizer.type");
                r.notes.push_back("optimizer.type \"" + detail::printable_key(t->get_ref<const std::string&>()) +
                                  "\" is not modelled: kept training.optimizer (Adam/AdamW map to adamw)");
            }
        }
    }
}

// parallel.partition_activations from activation_checkpointing.
void read_activation_checkpointing(Reader& in, const json& config, ParallelConfig& par) {
    // ── activation checkpointing (the model code decides what is recomputed; only this flag maps) ──
    if (const json* ac = in.section(config, "activation_checkpointing", "activation_checkpointing")) {
        bool a = false;
        if (auto pa = in.boolean(*ac, "partition_activations", "activation_checkpointing.partition_activations", &a))
            par.partition_activations = *pa;
        if (a) in.note_auto("activation_checkpointing.partition_activations", "parallel.partition_activations");
    }
}

// Notes (and unmapped_keys) for every key no reader consumed.
void list_unmapped(Reader& in, const json& config) {
    ImportResult& r = in.r;
    std::vector<std::string> no_effect, not_modelled;
    std::size_t not_listed = 0;
    collect_unmapped(in, config, "", no_effect, not_modelled, not_listed);
    for (const auto& k : no_effect) r.unmapped_keys.push_back(k);
    for (const auto& k : not_modelled) r.unmapped_keys.push_back(k);
    if (!no_effect.empty())
        r.notes.push_back("not mapped, no effect on memory or FLOPs as estimated here: " + join(no_effect));
    if (!not_modelled.empty())
        r.notes.push_back("not mapped, not modelled by the estimator (check them yourself): " + join(not_modelled));
    if (not_listed > 0) r.notes.push_back("… and " + std::to_string(not_listed) + " more unmapped keys not listed");
}

}  // namespace

ImportResult import_deepspeed_config(std::string_view text, const Scenario& base) {
    return import_json_text(text, base, "deepspeed", import_deepspeed_json);
}

ImportResult import_deepspeed_json(const json& config, const Scenario& base) {
    ImportResult r;
    r.scenario = base;
    r.family = "deepspeed";
    if (!config.is_object()) {
        r.issues.push_back({"json", "must be a JSON object {...} (got " + describe_json(config) + ")"});
        return r;
    }
    Reader in{r, {}};
    auto& tr = r.scenario.training;
    auto& par = r.scenario.parallel;
    read_precision(in, config, tr);
    const ZeroStage zero_stage = read_zero_stage(in, config, par);
    read_zero_options(in, zero_stage.zero, zero_stage.stage, zero_stage.known, par);
    read_batch_sizes(in, config, tr, par);
    read_optimizer(in, config, tr);
    read_activation_checkpointing(in, config, par);
    list_unmapped(in, config);
    return r;
}

}  // namespace vramcalc::codec
