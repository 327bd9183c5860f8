// One table that describes every output of the estimator, as fields.hpp does for the inputs:
// its JSON path (also its id), labels, unit, the explain() term that derives it, where it is shown
// and how to read it from an Estimate. The JSON codec, the CLI report, the Markdown copy, the
// page's result rows, tiles and summary, the explain links, docs/api.md and the .d.ts typings all
// iterate this table, so an output is named the same everywhere.
//
// Adding a scalar output: compute it in estimate() and add one row to outputs.cpp. Its path may
// nest to any depth ("performance.breakdown_seconds.compute"); the JSON object is built from it.
// Outputs that are not one value (lists, tables) are the short `composite_outputs()` list below:
// each kind there has one serializer in the JSON codec and one type in the typings generator.
#pragma once

#include <span>
#include <string_view>

#include "results.hpp"

namespace vramcalc {

// What a number measures. Front-ends format by unit (src/format); names end up in the docs.
enum class Unit {
    bytes,
    bytes_per_parameter,  // B/param
    bytes_per_element,    // activation coefficients: bytes per s·b·h or a·s²·b element
    parameters,
    flops,
    flops_per_second,
    seconds,
    days,
    gpu_hours,
    tflop_hours,
    pflop_days,
    money,      // currency units of hardware.price_per_gpu_hour
    tokens,
    tokens_per_second,
    tflops_per_second,  // TFLOP/s (10^12 FLOP/s)
    sequences,
    count,      // a plain number of things (GPUs, layers, micro-batches, heads)
    ratio,      // a fraction (0.25 = 25 %)
    flag,       // true/false
    text,       // a name from a fixed set (e.g. a phase)
};

// JSON value type of an output.
enum class ValueKind { number, integer, flag, text };

// Where an output is shown besides the JSON (which has every output). Bit set.
enum OutputShow : unsigned {
    show_none = 0,
    show_report = 1u << 0,     // a row of the CLI report and of the page's result cards
    show_markdown = 1u << 1,   // a row of "Copy as Markdown" / --markdown
    show_tile = 1u << 2,       // a headline tile of the page
    show_summary = 1u << 3,    // a sentence of the page's text summary (screen readers)
    hide_when_zero = 1u << 4,  // rows are left out when the value is 0
    show_share = 1u << 5,      // a memory term: rows add its share of the per-GPU total
    emphasise = 1u << 6,       // a total: bold in tables
};

// Which estimates an output belongs to (Estimate::workload). Bit set; JSON, reports and typings
// show an output only for its workloads.
enum OutputWorkload : unsigned {
    for_training = 1u << 0,
    for_inference = 1u << 1,
    for_both = for_training | for_inference,
};

// The card / report section a row belongs to.
enum class OutputSection { parameters, memory, compute, layout, detail };

struct OutputSpec {
    const char* path;         // JSON path and id: "memory_per_gpu_bytes.total"
    const char* label;        // self-contained: "Total per GPU" (explain panel, docs, summary)
    const char* short_label;  // within its section: "Total" (rows, legends)
    Unit unit;
    ValueKind kind;
    OutputSection section;
    unsigned show;            // OutputShow bits
    const char* explain;      // explain() term id that derives it, or nullptr
    const char* help;         // one sentence: docs/api.md, the .d.ts, tooltips
    double (*value)(const Estimate&);  // number, integer (exact), flag (0/1)
    // The note shown next to the value (rows, tiles): "{path}" placeholders name other outputs,
    // formatted by their unit. nullptr: no note. May depend on the estimate.
    const char* (*note)(const Estimate&) = nullptr;
    const char* (*text)(const Estimate&) = nullptr;  // kind == text
    unsigned workloads = for_training;                // OutputWorkload bits
};

// Whether an output is part of an estimate of this workload.
bool output_applies(const OutputSpec& output, Workload workload);

std::span<const OutputSpec> outputs();
const OutputSpec* find_output(std::string_view path);

// Outputs that are not a single value.
enum class CompositeKind {
    scenario,  // the complete Scenario that was estimated
    warnings,  // [{id, message}]
    notes,     // [{field, message}]: what preset application changed besides the preset (e.g. seq_len clamped)
    errors,    // [{field, message}]: always empty in an estimate (invalid input has only this)
    explain,   // [{id, label, formula, source, value, unit, inputs}] (CLI --explain --json)
    memory_timeline,  // [{phase, weights, gradients, optimizer, activations, logits, temporaries, total}]
    fixes,     // [{id, change, fields, total_bytes, headroom_bytes}]: ways to fit (core/fixes.hpp); [] when it fits
};
struct CompositeOutputSpec {
    const char* path;
    CompositeKind kind;
    bool always;       // present in every estimate (false: only on request)
    const char* help;
};
std::span<const CompositeOutputSpec> composite_outputs();

// Stable unit names used in explain terms and the docs ("bytes", "FLOPs", "GPU-h", …).
const char* unit_symbol(Unit unit);

}  // namespace vramcalc
