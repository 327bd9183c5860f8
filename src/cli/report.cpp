#include "cli/report.hpp"

#include <cmath>

#include "core/fields.hpp"
#include "core/training/finetune.hpp"
#include "core/training/fixes.hpp"

namespace vramcalc::cli {
namespace {

const char* choice_name(std::span<const char* const> names, auto value) { return names[static_cast<int>(value)]; }

const char* section_title(OutputSection section) {
    switch (section) {
        case OutputSection::parameters: return "Parameters";
        case OutputSection::memory: return "Memory per GPU";
        case OutputSection::compute: return "Compute, time and cost";
        case OutputSection::layout: return "Layout";
        case OutputSection::detail: return "Details";
    }
    return "";
}

// The smallest single changes after which the scenario fits (core/fixes.hpp), one line each.
std::string ways_to_fit(const Scenario& sc, ByteUnits units) {
    const std::vector<Fix> fixes = fixes_that_fit(sc);
    if (fixes.empty()) return "  no single change fits: try --plan for layouts that do\n";
    std::string out = "\nFits with one change (or see --plan)\n";
    for (const Fix& f : fixes)
        out += "  - " + describe_fix(f, sc) + ": " + format_bytes(f.total_bytes, units) + " per GPU (headroom " +
               format_bytes(f.headroom_bytes, units) + ")\n";
    return out;
}

// The header of a serving estimate: engine, format, load and the verdict in the engine's terms.
std::string serving_header(const Scenario& sc, const Estimate& e, ByteUnits units) {
    const auto& inf = sc.inference;
    const auto& i = e.inference;
    std::string out = printf_string("%s served by %s on %lld x %s (%s each)\n", sc.model.name.c_str(),
                                    choice_name(engine_names(), inf.engine), (long long)(sc.parallel.tensor * sc.parallel.pipeline),
                                    sc.hardware.gpu.c_str(), format_bytes(e.capacity_bytes, units).c_str());
    out += printf_string("  weights %s, KV cache %s, context %lld x %lld sequences, t=%lld p=%lld\n",
                         choice_name(weight_format_names(), inf.weight_format),
                         choice_name(kv_cache_dtype_names(), inf.kv_cache_dtype), (long long)inf.context_len,
                         (long long)inf.concurrency, (long long)sc.parallel.tensor, (long long)sc.parallel.pipeline);
    const char* verdict = e.fits ? "FITS" : i.starts ? "STARTS, BUT NOT ALL SEQUENCES FIT" : "DOES NOT FIT";
    out += printf_string("  verdict: %s (KV pool %s = %s tokens, max concurrency %.2fx, longest context %s)\n", verdict,
                         format_bytes(i.kv_pool_bytes, units).c_str(), format_grouped(i.kv_pool_tokens).c_str(),
                         i.max_concurrency, format_grouped(i.max_context_len).c_str());
    return out;
}

}  // namespace

static std::string format_warnings(const Estimate& e) {
    if (e.warnings.count == 0) return "";
    std::string out = "\nWarnings\n";
    for (int i = 0; i < e.warnings.count; ++i)
        out += printf_string("  - [%s] %s\n", warning_id(e.warnings.items[i]), warning_message(e.warnings.items[i]));
    return out;
}

// The report's sections: every output shown in reports that belongs to the estimate's workload.
std::string format_report_rows(const Estimate& e, ByteUnits units) {
    std::string out;
    for (OutputSection section :
         {OutputSection::parameters, OutputSection::memory, OutputSection::compute, OutputSection::layout}) {
        out += std::string("\n") + section_title(section) + "\n";
        for (const auto& o : outputs()) {
            if (o.section != section || !(o.show & show_report) || !output_applies(o, e.workload)) continue;
            double v = o.value(e);
            if ((o.show & hide_when_zero) && v == 0) continue;
            std::string value = format_output(o, e, units);
            std::string note = output_note(o, e, units);
            if (o.unit == Unit::parameters && v >= 1e4) note = format_grouped(v) + (note.empty() ? "" : " · " + note);
            if ((o.show & show_share) && e.memory_per_gpu_bytes.total > 0)
                note += (note.empty() ? "" : " · ") + format_percent(v / e.memory_per_gpu_bytes.total);
            if (std::string band = format_error_band(output_error_band(o.path, e)); !band.empty())
                note += (note.empty() ? "" : " · ") + band;
            out += "  " + pad(o.short_label, 26) + " " + pad(value, 16, true) + (note.empty() ? "" : "  (" + note + ")") + "\n";
        }
    }
    return out;
}

std::string format_serving_report(const Scenario& sc, const Estimate& e, ByteUnits units) {
    std::string out = serving_header(sc, e, units);
    out += std::string("  units: ") + units_definition(units) + "\n";
    out += format_report_rows(e, units);
    out += format_warnings(e);
    return out;
}

std::string format_report(const Scenario& sc, const Estimate& e, ByteUnits units) {
    if (e.workload == Workload::inference) return format_serving_report(sc, e, units);
    std::string out = printf_string("%s on %s x %s (%s each)\n", sc.model.name.c_str(),
                                    format_grouped(double(sc.parallel.num_gpus)).c_str(), sc.hardware.gpu.c_str(),
                                    format_bytes(e.capacity_bytes, units).c_str());
    out += printf_string("  %s, %s, recompute %s, ZeRO-%d, t=%lld p=%lld, s=%lld b=%lld\n",
                         choice_name(precision_names(), sc.training.precision),
                         choice_name(optimizer_names(), sc.training.optimizer),
                         choice_name(recompute_names(), sc.training.recompute), sc.parallel.zero_stage,
                         (long long)sc.parallel.tensor, (long long)sc.parallel.pipeline, (long long)sc.training.seq_len,
                         (long long)sc.training.micro_batch_size);
    if (sc.training.method != TrainingMethod::full) out += "  method: " + describe_method(sc.training) + "\n";
    out += printf_string("  verdict: %s (headroom %s)\n", e.fits ? "FITS" : "DOES NOT FIT",
                         format_bytes(e.headroom_bytes, units).c_str());
    out += std::string("  units: ") + units_definition(units) + "\n";
    if (!e.fits) out += ways_to_fit(sc, units);

    out += format_report_rows(e, units);

    // The predicted step time by cause (the table's rows give the totals).
    const auto& pf = e.performance;
    if (pf.predicted) {
        out += printf_string("\nStep time by cause (%g micro-batches per pipeline%s)\n", pf.microbatches,
                             pf.calibrated ? "" : "; uncalibrated GPU family");
        for (const auto& o : outputs()) {
            std::string_view path = o.path;
            if (!path.starts_with("performance.breakdown_seconds.")) continue;
            double seconds = o.value(e);
            out += "  " + pad(o.short_label, 26) + " " + pad(format_output(o, e, units), 16, true) + "  (" +
                   format_percent(seconds / pf.step_seconds) + ")\n";
        }
    }

    out += format_warnings(e);
    return out;
}

std::string format_plan(const PlanResult& result, ByteUnits units) {
    std::string out = printf_string("Layouts for %lld %s, global batch %lld: %lld searched, %lld fit in memory\n\n",
                                    (long long)result.num_gpus, result.num_gpus == 1 ? "GPU" : "GPUs",
                                    (long long)result.global_batch_size,
                                    (long long)result.searched, (long long)result.feasible);
    if (result.plans.empty()) return out + "No layout fits: use more GPUs, a smaller micro-batch or global batch.\n";
    out += "  #   t   p    DP  ZeRO    b    ga  recompute  SP   v  offload   memory/GPU     step s   tokens/s    MFU      days       cost  vs best  why\n";
    int rank = 0;
    for (const auto& p : result.plans) {
        const auto& sc = p.scenario;
        const auto& e = p.estimate;
        std::string why;
        for (int i = 0; i < p.reason_count; ++i) {
            const auto& r = p.reasons[std::size_t(i)];
            if (!why.empty()) why += "; ";
            if (r.factor == PlanFactor::memory_headroom)
                why += printf_string("headroom %s%s", r.delta >= 0 ? "+" : "-",
                                     format_bytes(std::fabs(r.delta), units).c_str());
            else
                why += printf_string("%s %+.3g s", plan_factor_label(r.factor), r.delta);
        }
        out += printf_string("%3d %3lld %3lld %5lld %5d %4lld %5lld  %-9s  %-3s %2lld  %-7s %12s %10.4g %10s %5.1f%% %9.4g %10.4g  %+6.1f%%  %s\n",
                             ++rank, (long long)sc.parallel.tensor, (long long)sc.parallel.pipeline,
                             (long long)e.layout.data_parallel, sc.parallel.zero_stage,
                             (long long)sc.training.micro_batch_size, (long long)e.layout.grad_accum_steps,
                             choice_name(recompute_names(), sc.training.recompute),
                             sc.parallel.sequence_parallel ? "on" : "off", (long long)sc.parallel.interleave,
                             sc.parallel.offload_optimizer ? "yes" : "no",
                             format_bytes(e.memory_per_gpu_bytes.total, units).c_str(),
                             e.performance.step_seconds, format_count(e.performance.tokens_per_second).c_str(),
                             100.0 * e.performance.mfu, e.compute.days, e.compute.cost, 100.0 * p.slowdown, why.c_str());
    }
    out += "\n'why' compares each layout with the best (the best with the runner-up): + loses time, - saves it.\n";
    return out;
}

std::string format_serving_plan(const Scenario& sc, const ServingPlanResult& r, ByteUnits units) {
    const auto& inf = sc.inference;
    std::string out = printf_string("Serving %s, %lld sequence%s of %lld tokens: %lld configurations searched, %lld fit",
                                    sc.model.name.c_str(), (long long)inf.concurrency, inf.concurrency == 1 ? "" : "s",
                                    (long long)inf.context_len, (long long)r.searched, (long long)r.fitting);
    out += r.meeting < r.fitting ? printf_string(", %lld meet the target\n", (long long)r.meeting) : std::string("\n");
    if (!r.below_min_bits.empty()) {
        std::string names;
        for (WeightFormat f : r.below_min_bits) names += (names.empty() ? "" : ", ") + std::string(choice_name(weight_format_names(), f));
        out += "Left out under the quality floor (--plan-min-bits): " + names + "\n";
    }
    out += "\n";
    if (r.plans.empty()) return out + r.message + "\n";
    out += "  #  GPU            GPUs   t   p  engine    format        bits/w   seqs   memory/GPU   KV tokens  decode tok/s  tok/s/seq    $/GPU-h  $/M tokens\n";
    int rank = 0;
    for (const auto& p : r.plans) {
        const auto& s = p.scenario;
        const auto& e = p.estimate;
        out += printf_string("%3d  %-14s %4lld %3lld %3lld  %-8s  %-12s %7.2f %6lld %12s %11s %13s %10s %10s %11s\n", ++rank,
                             s.hardware.gpu.c_str(), (long long)p.gpus, (long long)s.parallel.tensor, (long long)s.parallel.pipeline,
                             choice_name(engine_names(), s.inference.engine), choice_name(weight_format_names(), s.inference.weight_format),
                             p.bits_per_weight, (long long)s.inference.concurrency, format_bytes(e.memory_per_gpu_bytes.total, units).c_str(),
                             format_grouped(e.inference.kv_pool_tokens).c_str(), format_sig(p.decode_tokens_per_second).c_str(),
                             format_sig(p.sequence_tokens_per_second).c_str(), format_money(s.hardware.price_per_gpu_hour).c_str(),
                             format_money(p.cost_per_million_output_tokens).c_str());
    }
    out += "\nRanked by cost per million output tokens: $/GPU-h (the GPU preset) x GPUs / output tokens per hour at the decode speed.\n"
           "bits/w: checkpoint bytes x 8 / parameters. Each row is one serving estimate (its verdict fits); use a row with\n"
           "--gpu GPU --parallel.tensor t --parallel.pipeline p --inference.weight_format FORMAT.\n";
    return out;
}

std::string format_explain(const std::vector<ExplainTerm>& terms, ByteUnits units) {
    std::string out = "\nHow each number is computed\n";
    for (const auto& t : terms) {
        out += printf_string("\n%s = %s\n  %s\n", t.label, format_explained(t.value, t.unit, units).c_str(), t.formula);
        for (const auto& i : t.inputs)
            out += printf_string("    %-28s = %s\n", i.symbol, format_explained(i.value, i.unit, units).c_str());
        out += printf_string("  source: %s\n", t.source);
    }
    return out;
}

}  // namespace vramcalc::cli
