#include "codec/link.hpp"

#include <algorithm>
#include <charconv>

#include "codec/field_text.hpp"
#include "codec/numbers.hpp"
#include "format/shortest.hpp"
#include "codec/percent.hpp"
#include "codec/text.hpp"
#include "codec/view.hpp"
#include "core/training/frameworks.hpp"

namespace vramcalc::codec {
namespace {

// The scenario a link is encoded against: the current defaults, with the named model and GPU
// presets applied as the page applies them. Sets the preset ids the link must name.
Scenario base_for_link(const Scenario& sc, std::string& model_preset, std::string& gpu_preset, std::string& framework) {
    Scenario base = current_presets().defaults();
    if (const ModelPreset* mp = find_model_preset(sc.model.name)) {
        if (!same_model(mp->model, base.model)) model_preset = mp->id;
        apply_model_preset(base, *mp);
    }
    if (const GpuPreset* gp = find_gpu_preset(sc.hardware.gpu); gp && sc.hardware.gpu != base.hardware.gpu) {
        apply_gpu_preset(base.hardware, *gp);
        gpu_preset = gp->id;
    }
    if (sc.training.framework != base.training.framework) {
        apply_framework_profile(base, sc.training.framework);
        framework = framework_names()[std::size_t(sc.training.framework)];
    }
    return base;
}

// A field's value as a message shows it ("32", "swiglu", "true", "\"GPT-2 124M\"").
std::string shown_value(const FieldSpec& f, const Scenario& sc) {
    switch (f.kind) {
        case FieldKind::text: return quoted_excerpt(f.get_text(sc));
        case FieldKind::boolean: return f.get(sc) != 0.0 ? "true" : "false";
        case FieldKind::choice: return f.choices[std::size_t(f.get(sc))];
        case FieldKind::integer:
        case FieldKind::number: return format_shortest(f.get(sc));
    }
    return "";
}

void reset_field(const FieldSpec& f, Scenario& sc, const Scenario& base) {
    if (f.kind == FieldKind::text) f.set_text(sc, f.get_text(base));
    else f.set(sc, f.get(base));
}

bool same_issue(const ValidationIssue& a, const ValidationIssue& b) { return a.field == b.field && a.message == b.message; }

// "reset model.num_heads to the default (32)", "reset a, b and c to their defaults (1, 2, 3)".
std::string describe_reset(const std::vector<const FieldSpec*>& fields, const Scenario& sc) {
    std::string names, values;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        const char* separator = i == 0 ? "" : i + 1 == fields.size() ? " and " : ", ";
        names += separator + std::string(fields[i]->path);
        values += (i == 0 ? "" : ", ") + shown_value(*fields[i], sc);
    }
    return "reset " + names + (fields.size() == 1 ? " to the default (" : " to their defaults (") + values + ")";
}

// Makes a link whose fields break rules valid by resetting as few of the fields the link set
// (those that differ from `base`: its version's defaults with its presets) as it can. For the
// first problem it tries the field the problem names, then the fields its message names ("must
// be divisible by model.num_heads"), then every other field the link set: the first whose reset
// leaves fewer problems wins. When no single field helps (a product of several fields is too
// large), it resets them in that order until one does, then restores those not needed. Each
// problem is reported once, saying what was reset. If nothing helps, the scenario becomes `base`
// (or, should even that break a rule, `fallback`).
void repair(Scenario& sc, const Scenario& base, const Scenario& fallback, std::vector<ValidationIssue>& report) {
    struct Seen {
        ValidationIssue issue;
        std::string resolution;
    };
    std::vector<Seen> seen;  // every distinct problem, in the order met
    auto resolve = [&](const std::vector<ValidationIssue>& remaining, const std::string& resolution) {
        for (auto& s : seen) {
            bool open = std::any_of(remaining.begin(), remaining.end(), [&](const auto& r) { return same_issue(r, s.issue); });
            if (s.resolution.empty() && !open) s.resolution = resolution;
        }
    };
    const auto fields = scenario_fields();
    std::vector<ValidationIssue> problems = validate(sc);
    for (std::size_t round = 0; !problems.empty() && round <= fields.size(); ++round) {
        for (const auto& p : problems)
            if (std::none_of(seen.begin(), seen.end(), [&](const Seen& s) { return same_issue(s.issue, p); }))
                seen.push_back({p, ""});
        const ValidationIssue& first = problems.front();
        std::vector<const FieldSpec*> candidates;
        auto consider = [&](const FieldSpec* f) {
            if (f && !field_equal(*f, sc, base) && std::find(candidates.begin(), candidates.end(), f) == candidates.end())
                candidates.push_back(f);
        };
        consider(find_field_by_path(first.field));
        for (const auto& f : fields)
            if (first.message.find(f.path) != std::string::npos) consider(&f);
        for (const auto& f : fields) consider(&f);

        std::vector<const FieldSpec*> chosen;
        Scenario next = sc;
        std::vector<ValidationIssue> remaining;
        for (const FieldSpec* f : candidates) {  // one field
            Scenario trial = sc;
            reset_field(*f, trial, base);
            remaining = validate(trial);
            if (remaining.size() < problems.size()) {
                chosen = {f};
                next = std::move(trial);
                break;
            }
        }
        if (chosen.empty()) {  // several: reset in order until it helps, then keep only what is needed
            for (const FieldSpec* f : candidates) {
                reset_field(*f, next, base);
                chosen.push_back(f);
                remaining = validate(next);
                if (remaining.size() < problems.size()) break;
            }
            if (remaining.size() >= problems.size()) break;
            for (std::size_t i = 0; i + 1 < chosen.size();) {
                Scenario trial = next;
                const FieldSpec& f = *chosen[i];
                if (f.kind == FieldKind::text) f.set_text(trial, f.get_text(sc));
                else f.set(trial, f.get(sc));
                std::vector<ValidationIssue> without = validate(trial);
                if (without.size() <= remaining.size()) {
                    next = std::move(trial);
                    remaining = std::move(without);
                    chosen.erase(chosen.begin() + std::ptrdiff_t(i));
                } else {
                    ++i;
                }
            }
        }
        sc = std::move(next);
        problems = std::move(remaining);
        resolve(problems, describe_reset(chosen, sc));
    }
    if (!problems.empty()) {
        sc = validate(base).empty() ? base : fallback;
        resolve({}, "no field could be reset to fix this; the link's values are replaced by the defaults");
    }
    for (auto& s : seen) report.push_back({s.issue.field, s.issue.message + " — " + s.resolution});
}

struct Pair {
    std::string key, value;
};

// "a=1&b=2" → pairs; malformed items are reported and skipped.
std::vector<Pair> split_pairs(std::string_view fragment, std::vector<ValidationIssue>& issues) {
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
            issues.push_back({"link", "has a malformed item " + quoted_excerpt(item) + "; ignored"});
            continue;
        }
        if (eq == std::string_view::npos) {
            if (!is_view_key(pair.key)) issues.push_back({key_label(pair.key), "has no value; ignored"});
            continue;
        }
        pairs.push_back(std::move(pair));
    }
    return pairs;
}

// The field a link key stands for, as issues name it.
std::string key_field(const std::string& key) {
    if (key == "mp") return "model.preset";
    if (const FieldSpec* f = find_field_by_url_key(key)) return f->path;
    return key_label(key);
}

// A key given more than once is an error: which value was meant is unknown, so every occurrence
// is ignored (the field keeps its default; a repeated `v` reads the link as the current version).
void drop_repeated_keys(std::vector<Pair>& pairs, std::vector<ValidationIssue>& issues) {
    std::vector<std::pair<std::string, std::size_t>> counts;
    for (const auto& p : pairs) {
        auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == p.key; });
        if (it == counts.end()) counts.push_back({p.key, 1});
        else ++it->second;
    }
    for (const auto& entry : counts) {
        const std::string& key = entry.first;
        std::size_t count = entry.second;
        if (count < 2 || key == "embed") continue;
        std::erase_if(pairs, [&](const Pair& p) { return p.key == key; });
        if (key == "v") {
            issues.push_back({"v", "is given " + std::to_string(count) + " times in the link; reading the link as version " +
                                       std::to_string(link_version)});
            pairs.insert(pairs.begin(), Pair{"v", std::to_string(link_version)});
        } else {
            issues.push_back({key_field(key), "is given " + std::to_string(count) + " times in the link (key " +
                                                  quoted_excerpt(key) + "); ignored, using the default"});
        }
    }
}

// Whether a link without `v` has anything a scenario is made of (a key other than a view key).
// Without one it is the bare page (empty, or only view settings, or only items that are ignored):
// today's defaults, never version 1's (issue 21: the bare page computed without the CUDA context).
bool names_scenario(const std::vector<Pair>& pairs) {
    return std::any_of(pairs.begin(), pairs.end(), [](const Pair& p) { return !is_view_key(p.key); });
}

// The version a link names: the current one when it names no scenario at all (the bare page), else
// 1 when it names none (every link v1 wrote had `v=1`; hand-written ones without `v` meant v1's
// tables); the current one (with an issue) when unknown.
int link_version_of(const std::vector<Pair>& pairs, std::vector<ValidationIssue>& issues) {
    for (const auto& p : pairs) {
        if (p.key != "v") continue;
        int version = 0;
        auto [end, ec] = std::from_chars(p.value.data(), p.value.data() + p.value.size(), version);
        if (ec == std::errc() && end == p.value.data() + p.value.size() && link_edition(version)) return version;
        issues.push_back({"v", "link version " + quoted_excerpt(p.value) + " is not one this vramcalc reads (1 to " +
                                   std::to_string(link_version) + "); reading it as version " +
                                   std::to_string(link_version)});
        return link_version;
    }
    return names_scenario(pairs) ? 1 : link_version;
}

// Whether a link gives a GPU's own numbers (a custom GPU with its own label).
bool sets_gpu_numbers(const std::vector<Pair>& pairs) {
    for (const auto& p : pairs)
        if (const FieldSpec* f = find_field_by_url_key(p.key)) {
            std::string_view path = f->path;
            if (path == "hardware.memory_gib" || path == "hardware.peak_tflops" || path == "hardware.achieved_tflops")
                return true;
        }
    return false;
}

}  // namespace

const PresetEdition* link_edition(int version) {
    switch (version) {
        case 1: return &presets_v1();
        case 2: return &presets_v2();
        case 3: return &current_presets();  // frozen as presets_v3 when version 4 comes
        default: return nullptr;
    }
}

std::string encode_link(const Scenario& sc) {
    std::string model_preset, gpu_preset, framework;
    Scenario base = base_for_link(sc, model_preset, gpu_preset, framework);
    std::string out = "v=" + std::to_string(link_version);
    if (!model_preset.empty()) out += "&mp=" + percent_encode(model_preset);
    if (!gpu_preset.empty()) out += "&gpu=" + percent_encode(gpu_preset);
    if (!framework.empty()) out += "&fw=" + framework;
    // A GPU label that names no preset carries its memory, so that decoding tells it from a preset
    // name this version does not know (see decode_link).
    const bool custom_gpu = !find_gpu_preset(sc.hardware.gpu);
    for (const auto& f : scenario_fields()) {
        if (field_equal(f, sc, base) && !(custom_gpu && std::string_view(f.path) == "hardware.memory_gib")) continue;
        // A label naming a preset in another letter case ("h100-sxm") is that preset: gpu= names it once.
        if (!custom_gpu && std::string_view(f.path) == "hardware.gpu") continue;
        out += '&';
        out += f.url_key;
        out += '=';
        switch (f.kind) {
            case FieldKind::text: out += percent_encode(f.get_text(sc)); break;
            case FieldKind::boolean: out += f.get(sc) != 0.0 ? "1" : "0"; break;
            case FieldKind::choice: out += f.choices[std::size_t(f.get(sc))]; break;
            case FieldKind::integer:
            case FieldKind::number: out += format_shortest(f.get(sc)); break;
        }
    }
    return out;
}

DecodeResult decode_link(std::string_view fragment) {
    DecodeResult r{current_presets().defaults(), {}, {}};
    if (!fragment.empty() && fragment.front() == '#') fragment.remove_prefix(1);
    if (fragment.size() > max_link_length) {
        r.issues.push_back({"link", "is longer than " + std::to_string(max_link_length) + " characters; ignored"});
        return r;
    }
    std::vector<Pair> pairs = split_pairs(fragment, r.issues);
    drop_repeated_keys(pairs, r.issues);
    const PresetEdition& edition = *link_edition(link_version_of(pairs, r.issues));
    // The defaults of the link's version, then its presets as that version applied them, then its
    // fields in the order given.
    r.scenario = edition.defaults();
    std::string unknown_gpu;  // a GPU name that is no preset, with no numbers of its own
    for (const auto& p : pairs) {
        if (p.key == "mp") {
            if (const ModelPreset* preset = find_model_preset(edition, p.value)) {
                // What the link means: since version 2 a preset also sets dropout and fits the sequence.
                if (edition.presets_fit_sequence) apply_model_preset(r.scenario, *preset, nullptr);
                else r.scenario.model = preset->model;
            } else {
                r.issues.push_back({"model.preset", "unknown model preset " + quoted_excerpt(p.value) + "; ignored"});
            }
        } else if (p.key == "gpu") {
            if (const GpuPreset* preset = find_gpu_preset(edition, p.value)) apply_gpu_preset(r.scenario.hardware, *preset);
            else if (!sets_gpu_numbers(pairs)) unknown_gpu = p.value;
        } else if (p.key == "fw") {  // frameworks exist since version 2 (v1's edition has none)
            // A framework profile, as the link's version defined it, is applied like a preset (an
            // unknown name is reported below).
            const auto names = framework_names();
            for (const FrameworkProfile& profile : edition.frameworks)
                if (p.value == names[std::size_t(profile.id)]) apply_framework_profile(r.scenario, profile);
        }
    }
    Scenario base = r.scenario;
    bool seq_len_given = false, context_given = false;
    for (const auto& p : pairs) {
        if (p.key == "v" || p.key == "mp" || is_view_key(p.key)) continue;
        // Only a value shaped like a preset id (letters, digits, - _ .) reads as a preset name; other
        // text is a custom label (and control characters are reported by the field's own rule).
        if (p.key == "gpu" && !unknown_gpu.empty() && p.value.size() <= 40 &&
            std::all_of(p.value.begin(), p.value.end(), [](char c) {
                return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '_' || c == '.';
            })) {
            // A preset name this version does not know (gpu=B300): its numbers would silently be
            // the defaults', so the label is not taken and the banner says so.
            r.issues.push_back({"hardware.gpu", "names no GPU preset this vramcalc knows (" + quoted_excerpt(p.value) +
                                                    "); using " + r.scenario.hardware.gpu +
                                                    "'s memory and throughput — choose a GPU or set its numbers"});
            continue;
        }
        const FieldSpec* f = find_field_by_url_key(p.key);
        if (!f) {
            r.issues.push_back({key_label(p.key), "unknown link key; ignored"});
            continue;
        }
        if (p.key == "gpu" && find_gpu_preset(edition, p.value)) continue;  // already applied as a preset
        std::string problem = set_field_from_text(r.scenario, *f, p.value);
        if (!problem.empty()) r.issues.push_back({f->path, problem + "; using the default"});
        else if (std::string_view(f->path) == "training.seq_len") seq_len_given = true;
        else if (std::string_view(f->path) == "inference.context_len") context_given = true;
    }
    // A model keeps the sequence it can take, unless the link sets one: a change of what the link
    // meant (a v1 preset link at 2,048 tokens for 1,024 positions), so a note says so.
    if (!seq_len_given) fit_sequence_to_model(r.scenario, &r.notes);
    if (!context_given) fit_context_to_model(r.scenario, &r.notes);  // the same for the context served
    fit_sequence_to_model(base, nullptr);  // so a repair resets to a length the model takes
    repair(r.scenario, base, current_presets().defaults(), r.issues);
    tidy_issues(r.issues, "link");
    return r;
}

}  // namespace vramcalc::codec
