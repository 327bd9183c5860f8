// src/format: every number as the page, the CLI and the Markdown copy show it. Exact strings.
#include <catch2/catch.hpp>

#include <cstdlib>

#include "core/model/presets.hpp"
#include "format/format.hpp"
#include "format/markdown.hpp"
#include "format/shortest.hpp"

using namespace vramcalc;

namespace {
constexpr double GiB = 1024.0 * 1024.0 * 1024.0;
}

TEST_CASE("bytes: GiB by default, GB on request, units that stay comparable") {
    CHECK(format_bytes(63.03 * GiB, ByteUnits::gib) == "63.0 GiB");
    CHECK(format_bytes(9.3 * GiB, ByteUnits::gib) == "9.30 GiB");
    CHECK(format_bytes(80 * GiB, ByteUnits::gb) == "85.9 GB");
    CHECK(format_bytes(0, ByteUnits::gib) == "0 GiB");
    CHECK(format_bytes(512.0 * 1024 * 1024, ByteUnits::gib) == "0.50 GiB");  // half a GiB stays in GiB
    CHECK(format_bytes(100.0 * 1024 * 1024, ByteUnits::gib) == "100 MiB");
    CHECK(format_bytes(1000, ByteUnits::gib) == "1,000 B");
    CHECK(format_bytes(2048, ByteUnits::gib) == "2.00 KiB");
    CHECK(format_bytes(5000 * GiB, ByteUnits::gib) == "5,000 GiB");  // below 10 TiB: still GiB, grouped
    CHECK(format_bytes(19.5 * 1024 * GiB, ByteUnits::gib) == "19.5 TiB");
    CHECK(format_bytes(-2.5 * GiB, ByteUnits::gib) == "\xE2\x88\x92" "2.50 GiB");
    CHECK(unit_name(ByteUnits::gb) == std::string("GB"));
    CHECK(units_definition(ByteUnits::gib) == std::string("GiB = 2^30 bytes"));
    CHECK(bytes_in_unit(3 * GiB, ByteUnits::gib) == 3.0);
    CHECK(bytes_in_unit(3e9, ByteUnits::gb) == 3.0);
}

TEST_CASE("counts: thousands separators, or B/M/T with three digits") {
    CHECK(format_grouped(6658404352.0) == "6,658,404,352");
    CHECK(format_grouped(1790.4) == "1,790");
    CHECK(format_grouped(999) == "999");
    CHECK(format_grouped(0) == "0");
    CHECK(format_grouped(-0.2) == "0");
    CHECK(format_grouped(-12345) == "\xE2\x88\x92" "12,345");
    CHECK(format_count(6658404352.0) == "6.66 B");
    CHECK(format_count(124439808.0) == "124 M");
    CHECK(format_count(69e9) == "69.0 B");
    CHECK(format_count(1.2e12) == "1.20 T");
    CHECK(format_count(12300) == "12.3 K");
    CHECK(format_count(9999) == "9,999");
    CHECK(format_count(2.5) == "2.5");
}

TEST_CASE("significant digits, scientific notation, rates") {
    CHECK(format_sig(0.12345) == "0.123");
    CHECK(format_sig(12.0) == "12");
    CHECK(format_sig(12.5) == "12.5");
    CHECK(format_sig(1234.6) == "1,235");
    CHECK(format_sig(138.72, 4) == "138.7");
    CHECK(format_sig(0) == "0");
    CHECK(format_sci(1.199e22) == "1.20 × 10²²");
    CHECK(format_sci(9.996e21) == "1.00 × 10²²");  // rounding carried into the next power
    CHECK(format_sci(3.995e10) == "4.00 × 10¹⁰");
    CHECK(format_sci(42) == "42");
    CHECK(format_flop_rate(150e12) == "150 TFLOP/s");
    CHECK(format_flop_rate(1.2e15) == "1.2 PFLOP/s");
}

TEST_CASE("durations, money, percentages") {
    CHECK(format_duration(42) == "42 s");
    CHECK(format_duration(600) == "10 min");
    CHECK(format_duration(3 * 3600) == "3 hours");
    CHECK(format_duration(9.988e6) == "116 days");
    CHECK(format_duration(3 * 365.25 * 86400) == "3 years");
    CHECK(format_money(0.25) == "$0.25");
    CHECK(format_money(39950.4) == "$39,950");
    CHECK(format_money(1.52e6) == "$1.52 M");
    CHECK(format_money(2.4e9) == "$2.4 B");
    CHECK(format_percent(0.109) == "10.9 %");
    CHECK(format_percent(0.5) == "50 %");
}

TEST_CASE("step times in seconds or milliseconds; axis ticks in K (1024), k (1000) or digits") {
    CHECK(format_step_time(12.345) == "12.3 s");
    CHECK(format_step_time(1) == "1 s");
    CHECK(format_step_time(0.4567) == "457 ms");
    CHECK(format_step_time(0.0021) == "2.1 ms");
    CHECK(format_tick(4096) == "4K");      // 4 × 1024: sequence lengths
    CHECK(format_tick(16000) == "16k");    // 16 × 1000, not a multiple of 1024
    CHECK(format_tick(1536) == "1,536");   // 1.5 × 1024: not a whole K
    CHECK(format_tick(8000) == "8,000");   // below 10,000: digits
    CHECK(format_tick(8) == "8");
}

TEST_CASE("format_shortest is the shortest round-tripping text") {
    CHECK(format_shortest(2e12) == "2e12");
    CHECK(format_shortest(1e9) == "1e9");
    CHECK(format_shortest(15.6e12) == "1.56e13");
    CHECK(format_shortest(1e-3) == "0.001");
    CHECK(format_shortest(40) == "40");
    CHECK(format_shortest(4096) == "4096");
    CHECK(format_shortest(1.25) == "1.25");
    double third = 0.1 + 0.2;
    CHECK(format_shortest(third) == "0.30000000000000004");  // 17 digits: the double nearest 0.3 is another
    CHECK(std::strtod(format_shortest(third).c_str(), nullptr) == third);
}

TEST_CASE("a field's value as typed back; tokens, sequences and GPUs counted in words") {
    CHECK(format_input_number(4096) == "4,096");
    CHECK(format_input_number(300e9) == "300,000,000,000");
    CHECK(format_input_number(0.05) == "0.05");
    CHECK(format_input_number(79.6) == "79.6");
    CHECK(format_input_number(2e-5) == "2e-5");
    CHECK(format_input_number(-12) == "\xE2\x88\x92" "12");  // U+2212, as format_grouped writes it
    CHECK(format_tokens(32768) == "32,768 tokens");
    CHECK(format_tokens(131071.9) == "131,071 tokens");  // whole tokens, rounded down
    CHECK(format_sequences(1) == "1 sequence");
    CHECK(format_sequences(12.7) == "12 sequences");
    CHECK(format_sequences(0.9999999999) == "1 sequence");  // a ratio that is 1 but for rounding
    CHECK(format_sequences(0.4137) == "0.41 of a sequence");  // part of one sequence fits, not "0 sequences"
    CHECK(format_sequences(0) == "0 sequences");
    CHECK(format_gpus(1) == "1 GPU");
    CHECK(format_gpus(8) == "8 GPUs");
}

TEST_CASE("outputs by unit, with and without the unit's word") {
    // "Max concurrency" below one sequence: the fraction, not a rounded 0 (vLLM prints "0.41x")
    CHECK(format_value(0.4137, Unit::sequences, ByteUnits::gib) == "0.41 sequences");
    CHECK(format_value(0.004, Unit::sequences, ByteUnits::gib, false) == "0.004");
    CHECK(format_value(0, Unit::sequences, ByteUnits::gib, false) == "0");
    CHECK(format_value(284.25, Unit::sequences, ByteUnits::gib, false) == "284");
    // vLLM's "Maximum concurrency ... 5.85x" holds 5 whole sequences at once, not a rounded-up 6
    CHECK(format_value(5.85, Unit::sequences, ByteUnits::gib, false) == "5");
    CHECK(format_value(125.88, Unit::sequences, ByteUnits::gib) == "125 sequences");
    CHECK(format_value(0.9999999999, Unit::sequences, ByteUnits::gib, false) == "1");
    CHECK(format_value(22195.3, Unit::gpu_hours, ByteUnits::gib) == "22,195 GPU-hours");
    CHECK(format_value(22195.3, Unit::gpu_hours, ByteUnits::gib, false) == "22,195");
    CHECK(format_value(1.199e22, Unit::flops, ByteUnits::gib) == "1.20 × 10²² FLOP");
    CHECK(format_value(2, Unit::bytes_per_parameter, ByteUnits::gib) == "2 B/param");
    CHECK(format_value(1024, Unit::sequences, ByteUnits::gib) == "1,024 sequences");
    CHECK(format_value(32, Unit::count, ByteUnits::gib) == "32");
    CHECK(format_value(1.3317e11, Unit::tokens, ByteUnits::gib) == "133 B tokens");
    CHECK(format_value(1, Unit::flag, ByteUnits::gib) == "yes");
    CHECK(format_explained(13314398208.0, "bytes", ByteUnits::gib) == "12.4 GiB  (13,314,398,208 bytes)");
    CHECK(format_explained(6658404352.0, "parameters", ByteUnits::gib) == "6.66 B  (6,658,404,352)");
    CHECK(format_explained(8, "", ByteUnits::gib) == "8");
    CHECK(format_explained(2, "bytes/param", ByteUnits::gib) == "2 bytes/param");
}

TEST_CASE("notes name other outputs and read them by their units") {
    // GPT-3 6.7B defaults: 2-byte weights, 32 layers, one micro-batch in flight, 150 TFLOP/s per GPU.
    Estimate e = estimate(Scenario{});
    CHECK(format_note("{bytes_per_parameter.weights}", e, ByteUnits::gib) == "2 B/param");
    CHECK(format_note("{activations.layers_on_gpu} layers × {activations.in_flight_microbatches} in flight", e,
                      ByteUnits::gib) == "32 layers × 1 in flight");
    CHECK(format_note("at {layout.achieved_flops_per_gpu} per GPU", e, ByteUnits::gib) == "at 150 TFLOP/s per GPU");
    CHECK(format_note("of {capacity_bytes}", e, ByteUnits::gb) == "of 85.9 GB");
    CHECK(format_note("{no.such} stays", e, ByteUnits::gib) == "{no.such} stays");
    CHECK(output_note(*find_output("layout.data_parallel"), e, ByteUnits::gib) == "GPUs / (tensor × pipeline)");
}

TEST_CASE("Markdown escaping makes user text inert") {
    CHECK(escape_markdown("GPT-3 6.7B") == "GPT-3 6.7B");
    CHECK(escape_markdown("<img src=x onerror=alert(1)>") == "&lt;img src=x onerror=alert(1)&gt;");
    CHECK(escape_markdown("[click](javascript:alert(1))") == "\\[click\\](javascript:alert(1))");
    CHECK(escape_markdown("a|b*c_d`e") == "a\\|b\\*c\\_d\\`e");
    CHECK(escape_markdown("line\nbreak") == "line break");
    CHECK(escape_markdown("x\xE2\x80\xAEy") == "xy");  // U+202E RIGHT-TO-LEFT OVERRIDE dropped
    CHECK(escape_markdown("AT&T") == "AT&amp;T");
    CHECK(printf_string("%s=%d", "b", 4) == "b=4");
    CHECK(printf_string("%s", std::string(1000, 'x').c_str()).size() == 1000);
}

TEST_CASE("the Markdown copy: rows from the output table, user text escaped, link in angle brackets") {
    Scenario s;
    s.model.name = "**<img src=x>**";
    s.hardware.gpu = "[click](javascript:alert(1))";
    Estimate e = estimate(s);
    std::string md = estimate_to_markdown(s, e, ByteUnits::gib, "https://example.org/#v=2&b=4");
    CHECK(md.rfind("**\\*\\*&lt;img src=x&gt;\\*\\*** on 8 × \\[click\\](javascript:alert(1)) — ", 0) == 0);
    CHECK(md.find("| Weights | 12.4 GiB | 2 B/param · 18.2 % |") != std::string::npos);
    CHECK(md.find("| **Total** | **68.1 GiB** | of 80.0 GiB |") != std::string::npos);
    CHECK(md.find("| GPU-hours | 22,195 | |") != std::string::npos);
    CHECK(md.find("[Open this scenario in vramcalc](<https://example.org/#v=2&b=4>)") != std::string::npos);
    CHECK(md.find("GiB = 2^30 bytes.") != std::string::npos);
}
