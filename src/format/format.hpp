// How numbers read, for every face that shows text: the page (src/app), the CLI report and the
// Markdown copy. Bytes in GiB (default) or GB, counts with thousands separators or B/M/T
// suffixes, FLOPs in scientific notation, durations, money, percentages; an output of the output
// table by its unit; Markdown escaping of user text. Formatting only: no formula lives here, and
// nothing here parses (that is src/codec). Standard library + core only: the page links it
// without the JSON library.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/error_bands.hpp"
#include "core/estimate.hpp"
#include "core/outputs.hpp"

namespace vramcalc {

enum class ByteUnits { gib, gb };  // GiB = 2^30 bytes (default, what nvidia-smi reports), GB = 10^9

const char* unit_name(ByteUnits units);                   // "GiB" / "GB"
const char* units_definition(ByteUnits units);            // "GiB = 2^30 bytes" / "GB = 10^9 bytes"
double bytes_in_unit(double bytes, ByteUnits units);      // 71.3 (GiB or GB)
std::string format_bytes(double bytes, ByteUnits units);  // "71.3 GiB", "512 MiB", "1.20 TiB", "0 GiB"
std::string format_grouped(double value);                 // "1,790", "−12" (rounded to an integer)
std::string format_count(double value);                   // "6.66 B", "124 M", "12.3 K", "9,999"
std::string format_sig(double value, int digits = 3);     // "0.123", "12.3", "1,235" (no exponent)
std::string format_sci(double value);                     // "1.21 × 10²²" (below 10^5: format_sig)
std::string format_flop_rate(double flops_per_second);    // "150 TFLOP/s", "1.2 PFLOP/s"
std::string format_duration(double seconds);              // "42 s", "9.3 days", "2.1 years"
std::string format_step_time(double seconds);             // "1.23 s", "450 ms": a step, or two steps' difference
std::string format_tick(std::int64_t value);              // "4K" (4096), "16k" (16000), "1,536": axis ticks
std::string format_money(double value);                   // "$0.25", "$3,222", "$1.52 M"
std::string format_percent(double fraction);              // "10.9 %"
std::string format_input_number(double value);            // "4,096", "0.05", "2e-5": a field's value as typed back
std::string format_tokens(double tokens);                 // "32,768 tokens" (whole tokens, rounded down)
std::string format_sequences(double count);               // "1 sequence", "12 sequences" (whole, rounded down); "0.41 of a sequence" below 1
std::string format_sequence_count(double count);          // whole sequences, rounded down ("5" for 5.85), "0.41" below 1 (never a rounded "0")
std::string format_gpus(std::int64_t count);              // "1 GPU", "8 GPUs"

// An output's value by its unit. With `unit_word` the counted thing is named ("22,195
// GPU-hours", "1.2 × 10²² FLOP"); without, rows whose label names it show just the number.
// Units that always carry a symbol (bytes, money, durations, rates) have it either way.
std::string format_value(double value, Unit unit, ByteUnits units, bool unit_word = true);
std::string format_output(const OutputSpec& output, const Estimate& estimate, ByteUnits units,
                          bool unit_word = false);
// Fills the "{path}" placeholders of a note template with those outputs, formatted by unit.
std::string format_note(std::string_view note, const Estimate& estimate, ByteUnits units);
// The output's note for this estimate ("" when it has none).
std::string output_note(const OutputSpec& output, const Estimate& estimate, ByteUnits units);
// An error band, short: "−12 % … +8 %, 23 held-out runs"; without cases "no error band" ("" when
// the figure is no prediction: band.applies is false). long_form: "Measured error on 23 held-out
// runs (H100, one node, FSDP): −12 % … +8 % (10th–90th percentile)", or the reason there is none.
std::string format_error_band(const ErrorBand& band, bool long_form = false);

// A value of an explain() term or input, given its unit symbol ("bytes", "FLOPs", "GPU-h", …):
// the readable form plus the exact number where rounding hides it ("12.4 GiB  (13,314,398,208 bytes)").
std::string format_explained(double value, std::string_view unit, ByteUnits units);

// User text made inert in Markdown and HTML: Markdown punctuation is backslash-escaped, <, > and &
// become entities, line breaks and other control characters become spaces, invisible format
// characters (bidi overrides, zero-width, core/text.hpp) are dropped, bytes that are not UTF-8
// become U+FFFD, and text beyond max_text_length characters is cut (between characters) with "…".
std::string escape_markdown(std::string_view text);

// `text` padded with spaces to `width` characters (UTF-8 aware), on the left when right-aligned.
std::string pad(std::string_view text, std::size_t width, bool right_align = false);

// printf into a std::string (any length).
std::string printf_string(const char* format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace vramcalc
