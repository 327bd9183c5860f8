// Hostile input (issue 10): every input the issue lists, in each C++ face it reaches (the codec,
// the core rules, the CLI in-process and as the real binary). The JS API and the page have the
// same cases in tests/js/hostile.test.mjs and tests/browser/hostile.test.mjs.
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "cli/cli.hpp"
#include "cli_runner.hpp"
#include "codec/codec.hpp"
#include "codec/import_deepspeed.hpp"
#include "codec/import_hf.hpp"
#include "codec/percent.hpp"
#include "core/fields.hpp"
#include "core/outputs.hpp"
#include "core/training/planner.hpp"
#include "core/model/presets.hpp"
#include "core/text.hpp"
#include "format/markdown.hpp"

using namespace vramcalc;
using nlohmann::json;

namespace {

int count_named(const std::vector<ValidationIssue>& issues, const std::string& field) {
    int n = 0;
    for (const auto& i : issues) n += i.field == field;
    return n;
}

bool names(const std::vector<ValidationIssue>& issues, const std::string& field, const std::string& words = "") {
    for (const auto& i : issues)
        if (i.field == field && i.message.find(words) != std::string::npos) return true;
    return false;
}

// Valid UTF-8 with no control or format character but line breaks: safe for a terminal and a page.
bool clean_text(const std::string& text) {
    if (!valid_utf8(text)) return false;
    for (std::size_t i = 0; i < text.size();) {
        std::size_t n = utf8_sequence_length(text, i);
        char32_t c = utf8_code_point(text, i, n);
        if (c != '\n' && is_control_or_format(c)) return false;
        i += n;
    }
    return true;
}

bool finite_outputs(const Scenario& s) {
    Estimate e = estimate(s);
    for (const auto& o : outputs())
        if (!std::isfinite(o.value(e))) return false;
    return true;
}

cli::Result run(std::vector<std::string> args, const std::string& stdin_text = "") {
    return cli::run(args, [&](const std::string& path, std::size_t limit) {
        cli::ReadResult r;
        if (path == "-") r = {true, stdin_text.substr(0, limit), ""};
        else r.problem = "No such file or directory";
        return r;
    });
}

// A CLI run whose output is clean and, with --json, one JSON document.
cli::Result run_clean(std::vector<std::string> args, const std::string& stdin_text = "") {
    cli::Result r = run(args, stdin_text);
    INFO(r.err);
    CHECK(clean_text(r.out));
    CHECK(clean_text(r.err));
    CHECK((r.exit_code == cli::exit_ok || r.exit_code == cli::exit_invalid));
    return r;
}

json errors_of(const cli::Result& r) {
    json j = json::parse(r.out);
    REQUIRE(j.contains("errors"));
    return j["errors"];
}

bool json_names(const json& errors, const std::string& field) {
    for (const auto& e : errors)
        if (e["field"] == field) return true;
    return false;
}

}  // namespace

// ── 1. The CLI never aborts ──────────────────────────────────────────────────────────────────

TEST_CASE("issue 10.1: arguments that are not UTF-8, with --json, give valid JSON naming the field") {
    auto gpu = run_clean({"--gpu", "\xff\xfe", "--json"});
    CHECK(gpu.exit_code == 2);
    CHECK(json_names(errors_of(gpu), "hardware.gpu"));
    CHECK(gpu.err.find("error: hardware.gpu: must be valid UTF-8 text") != std::string::npos);

    auto flag = run_clean({"--\xff", "--json"});
    CHECK(flag.exit_code == 2);
    CHECK(json_names(errors_of(flag), "--\\xFF"));  // the byte is shown escaped

    auto preset = run_clean({"--model-preset", "\xff", "--json"});
    CHECK(preset.exit_code == 2);
    CHECK(errors_of(preset)[0]["message"] == "unknown model preset \"\\xFF\" (see --list-presets)");

    auto config = run_clean({"--config", "/nonexist\xff", "--json"});
    CHECK(config.exit_code == 2);
    CHECK(errors_of(config)[0]["message"] == "cannot read file \"/nonexist\\xFF\": No such file or directory");

    for (const char* bad : {"\xc0\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "a\xe2\x82", "\x1b[2J", "\xe2\x80\xae"}) {
        for (const char* flag_name : {"--gpu", "--model.name", "--layers", "--link", "--precision", "--model-preset"}) {
            INFO(flag_name << " " << bad);
            auto r = run_clean({flag_name, bad, "--json"});
            CHECK(r.exit_code == 2);
            CHECK_NOTHROW(errors_of(r));
        }
    }
}

TEST_CASE("issue 10.1: the real binary with non-UTF-8 arguments exits 2, never 134") {
    using vramcalc::testing::run_cli;
    for (const char* args : {"--gpu \"$(printf '\\377\\376')\" --json", "\"$(printf -- '--\\377')\" --json",
                             "--model-preset \"$(printf '\\377')\" --json", "--config \"$(printf '/nonexist\\377')\" --json"}) {
        INFO(args);
        auto r = run_cli(args);
        CHECK(r.exit_code == 2);
        CHECK(clean_text(r.out));
        CHECK(clean_text(r.err));
        CHECK_NOTHROW(json::parse(r.out));
    }
}

TEST_CASE("issue 10.1: --gpu labels follow the text rule, so --print-link prints only links --link takes") {
    auto huge = run_clean({"--gpu", std::string(100000, 'x'), "--print-link"});
    CHECK(huge.exit_code == 2);
    CHECK(huge.err.find("hardware.gpu: must be at most 200 characters (got 100000)") != std::string::npos);
    CHECK(huge.out.empty());

    std::string cjk;
    for (int i = 0; i < 200; ++i) cjk += "\xe7\xae\x97";  // 算: 200 characters, 600 bytes
    for (const std::string& label : {cjk, std::string("my \"cluster\" & <co> | 100%"), std::string("\xf0\x9f\x9a\x80 GPU"),
                                     std::string("a100-80gb"), std::string(" ")}) {
        INFO(label);
        auto out = run_clean({"--gpu", label, "--model.name", label, "--print-link"});
        REQUIRE(out.exit_code == 0);
        std::string link = out.out.substr(0, out.out.find('\n'));
        auto back = run_clean({"--link", link, "--print-link"});
        CHECK(back.exit_code == 0);
        CHECK(back.out.substr(0, back.out.find('\n')) == link);
    }
    // With --plan too (fuzz_cli found --plan printing the plan table where the link belongs).
    auto planned = run_clean({"--link", "v=1&mp=gpt2&b=4", "--plan", "--print-link"});
    REQUIRE(planned.exit_code == 0);
    std::string planned_link = planned.out.substr(0, planned.out.find('\n'));
    CHECK(planned_link.starts_with("v=3&"));
    CHECK(codec::decode_link(planned_link).issues.empty());
    std::string too_long = cjk + "\xe7\xae\x97";
    CHECK(run_clean({"--gpu", too_long}).exit_code == 2);
    CHECK(run_clean({"--model.name", too_long}).exit_code == 2);
}

TEST_CASE("issue 10.1: the CLI's switches take no value (fuzz_cli, long run: --list-presets=0 listed presets)") {
    for (const char* flag : {"--list-presets", "--list-fields", "--help", "--json", "--print-link", "--plan", "--gb",
                             "--explain", "--markdown"}) {
        INFO(flag);
        auto r = run_clean({std::string(flag) + "=0&mfu=0", "--print-link"});
        CHECK(r.exit_code == 2);
        CHECK(r.err.find(std::string("error: ") + flag + ": takes no value (got \"0&mfu=0\")") != std::string::npos);
    }
    // Without a value they work as before.
    CHECK(run_clean({"--list-presets"}).out.starts_with("Models"));
}

TEST_CASE("issue 10.7: a GPU label naming a preset in another letter case is encoded once (fuzz_scenario_json, long run)") {
    // The long run's input: "gpu": "h100-SXM" with memory and peak of its own; the link named gpu= twice.
    auto decoded = codec::scenario_from_json_text(
        R"({"hardware":{"gpu":"h100-SXM","memory_gib":79.6,"peak_tflops":989.1},"parallel":{"zero_stage":3}})");
    REQUIRE(decoded.issues.empty());
    std::string link = codec::encode_link(decoded.scenario);
    CHECK(link.find("gpu=") == link.rfind("gpu="));
    auto back = codec::decode_link(link);
    CHECK(back.issues.empty());
    CHECK(back.scenario.hardware.gpu == "H100-SXM");  // the preset's id: only the letter case differs
    CHECK(back.scenario.hardware.memory_gib == 79.6);
    CHECK(back.scenario.hardware.peak_tflops == 989.1);
    CHECK(codec::encode_link(back.scenario) == link);
}

TEST_CASE("issue 10.1: no argument list makes run() throw or abort") {
    std::vector<std::vector<std::string>> lists = {
        {}, {"--"}, {"-"}, {"--="}, {"--config"}, {"--link"}, {"--gpu"}, {"--=x"}, {"--no-"}, {"--no-layers"},
        {"--json", "--json"}, {"--flash-attention", "maybe"}, {"--link", std::string(100000, '&')},
        {"--config", "-", "--config", "-"}, {std::string(1, '\0')}, {"--layers", std::string("4\0" "0", 3)},
    };
    for (const auto& args : lists) {
        auto r = run_clean(args, "{}");
        CHECK(r.exit_code != cli::exit_internal_error);
    }
}

// ── 2. Every output finite and meaningful, or the input rejected naming the field ────────────

TEST_CASE("issue 10.2: vanishing rates are rejected naming the field, in links, JSON and the CLI") {
    auto ach = codec::decode_link("v=1&ach=1e-300");
    CHECK(names(ach.issues, "hardware.achieved_tflops", "must be 0 (use mfu) or a number from 0.001 to"));
    CHECK(validate(ach.scenario).empty());
    CHECK(ach.scenario.hardware.achieved_tflops == 150);
    CHECK(finite_outputs(ach.scenario));

    auto mfu = codec::decode_link("v=1&ach=0&mfu=1e-320");
    CHECK(names(mfu.issues, "hardware.mfu", "out of range"));  // below the smallest normal double
    CHECK(validate(mfu.scenario).empty());
    CHECK(finite_outputs(mfu.scenario));
    auto small_mfu = codec::decode_link("v=1&ach=0&mfu=1e-300");
    CHECK(names(small_mfu.issues, "hardware.mfu", "must be 0 (use achieved_tflops) or a number from 0.0001 to 1"));

    auto json_ach = codec::scenario_from_json_text(R"({"hardware": {"achieved_tflops": 1e-300}})");
    CHECK(names(json_ach.issues, "hardware.achieved_tflops", "(got 1e-300)"));

    auto cli_ach = run_clean({"--link", "v=1&ach=1e-300", "--json"});
    CHECK(cli_ach.exit_code == 2);
    CHECK(json_names(errors_of(cli_ach), "link: hardware.achieved_tflops"));
    auto cli_json = run_clean({"--config", "-", "--json"}, R"({"hardware": {"achieved_tflops": 1e-300}})");
    CHECK(cli_json.exit_code == 2);
    CHECK(json_names(errors_of(cli_json), "hardware.achieved_tflops"));

    Scenario s;
    s.hardware.peak_tflops = 1e-300;
    s.hardware.achieved_tflops = 0;
    s.hardware.mfu = 1;
    CHECK(names(validate(s), "hardware.peak_tflops"));
    s = {};
    s.training.tokens = 1e-300;
    CHECK(names(validate(s), "training.tokens", "from 1 to"));
}

TEST_CASE("issue 10.2: vanishing bandwidths of the predicted throughput model are rejected naming the field") {
    for (const char* key : {"nvl", "ib", "hbm"}) {
        auto d = codec::decode_link(std::string("v=2&tm=predicted&") + key + "=1e-300");
        INFO(key);
        CHECK(d.issues.size() == 1);
        CHECK(validate(d.scenario).empty());
        CHECK(finite_outputs(d.scenario));
    }
    Scenario s;
    s.hardware.throughput_model = ThroughputModel::predicted;
    s.hardware.inter_node_gbps = 1e-300;
    CHECK(names(validate(s), "hardware.inter_node_gbps", "must be a number from 0.001 to"));
    s.hardware.inter_node_gbps = 0.001;  // the smallest allowed: every output still finite
    s.parallel.num_gpus = 16;
    CHECK(validate(s).empty());
    CHECK(finite_outputs(s));
}

TEST_CASE("issue 10.1: --plan validates the scenario first; --plan-top and --plan-hold are strict") {
    auto invalid = run_clean({"--plan", "--hidden-size", "4096", "--num-heads", "30", "--json"});
    CHECK(invalid.exit_code == 2);
    CHECK(json_names(errors_of(invalid), "model.hidden_size"));
    for (const char* top : {"0x10", " 5", "5.5", "1e400", "1001", "-1", ""}) {
        auto r = run_clean({"--plan", "--plan-top", top});
        INFO(top);
        CHECK(r.exit_code == 2);
        CHECK(r.err.find("error: --plan-top: must be an integer from 1 to 1000") != std::string::npos);
    }
    auto hold = run_clean({"--plan", "--plan-hold", "tensor,\xE2\x80\xAEzero", "--json"});
    CHECK(hold.exit_code == 2);
    CHECK(hold.err.find("\\u202E") != std::string::npos);  // the bidi override is shown escaped
    auto ok = run_clean({"--model-preset", "gpt2", "--num-gpus", "8", "--plan", "--plan-top", "2", "--json"});
    CHECK(ok.exit_code == 0);
    json plans = json::parse(ok.out);
    CHECK(plans["plans"].size() == 2);
    // Like every --json document, the plan has its (empty) errors (fuzz_cli, long run: --plan --json).
    CHECK(plans["errors"] == json::array());
}

TEST_CASE("issue 10.2: a global batch beyond 10^9 (or int64) is rejected, never wraps") {
    auto link = codec::decode_link("v=1&B=0&ga=100000000&b=1000&N=100000000&L=40");
    CHECK(names(link.issues, "training.grad_accum_steps", "gives a global batch of"));
    CHECK(validate(link.scenario).empty());
    CHECK(link.scenario.model.layers == 40);  // what the link set beyond the offending fields stays
    Estimate e = estimate(link.scenario);
    CHECK(e.layout.global_batch_size == 1024);

    Scenario s;
    s.training.global_batch_size = 0;
    s.training.grad_accum_steps = 100000000;
    s.training.micro_batch_size = 1000;
    s.parallel.num_gpus = 100000000;
    auto issues = validate(s);
    CHECK(names(issues, "training.grad_accum_steps",
                "micro_batch_size × data-parallel degree × grad_accum_steps = 1000 × 100000000 × 100000000 sequences, "
                "more than 1000000000"));
    CHECK_FALSE(evaluate(s).ok());
    // A given global batch with an accumulation whose product would overflow: compared by division.
    s.training.global_batch_size = 1000000000;
    s.training.micro_batch_size = 1;
    s.parallel.num_gpus = 1;
    s.training.grad_accum_steps = 1000000000;
    CHECK(validate(s).empty());
    s.training.grad_accum_steps = 999999999;
    CHECK(names(validate(s), "training.grad_accum_steps", "disagrees with global_batch_size"));

    auto cli = run_clean({"--link", "v=1&B=0&ga=100000000&b=1000&N=100000000", "--json"});
    CHECK(cli.exit_code == 2);
    CHECK(json_names(errors_of(cli), "link: training.grad_accum_steps"));
}

TEST_CASE("issue 10.2: an out-of-range micro-batch on many GPUs is reported, never multiplied") {
    // fuzz_decode_link and fuzz_cli, long run: the rules multiplied micro_batch_size by the
    // data-parallel degree before knowing it was in range (signed overflow, UBSan).
    Scenario s;
    s.training.micro_batch_size = 33333356256000;
    s.parallel.num_gpus = 56256000;
    CHECK(names(validate(s), "training.micro_batch_size"));
    s.training.micro_batch_size = 101000000000;
    s.parallel.num_gpus = 100000000;
    s.training.global_batch_size = 0;
    s.training.grad_accum_steps = 1000000;
    CHECK(names(validate(s), "training.micro_batch_size"));
    CHECK_FALSE(evaluate(s).ok());
    auto link = codec::decode_link("v=1&B=0&ga=33&b=33333356256000&N=56256000");
    CHECK(names(link.issues, "training.micro_batch_size"));
    CHECK(validate(link.scenario).empty());
}

TEST_CASE("issue 10.2: the extremes every rule allows still give finite outputs") {
    Scenario s;
    s.model.layers = 100000;
    s.model.hidden_size = 10000000;
    s.model.num_heads = 1000000;
    s.model.ffn_hidden_size = 10000000;
    s.model.vocab_size = 10000000;
    s.model.position_embedding = PositionEmbedding::rope;
    s.training.seq_len = 100000000;
    s.training.micro_batch_size = 10;
    s.training.global_batch_size = 0;
    s.training.grad_accum_steps = 1;
    s.training.tokens = 1e18;
    s.training.attention_flops = true;
    s.training.recompute = Recompute::full;
    s.parallel.num_gpus = 100000000;
    s.parallel.zero_stage = 3;
    s.parallel.zero3_live_params = 1e16;
    s.hardware.peak_tflops = 0.001;
    s.hardware.achieved_tflops = 0;
    s.hardware.mfu = 0.0001;
    s.hardware.price_per_gpu_hour = 1e6;
    s.hardware.memory_gib = 1e6;
    REQUIRE(validate(s).empty());
    CHECK(finite_outputs(s));
    CHECK(evaluate(s).ok());
    s.model.params_override = 1;
    CHECK(finite_outputs(s));
    s.model.params_override = 1e-300;
    CHECK(names(validate(s), "model.params_override", "must be 0 (count from the architecture) or a number from 1"));
}

// ── 3. A decoded link is always valid; a bad combination resets only its fields, once ────────

TEST_CASE("issue 10.3: every preset link opens valid, in every version, with every GPU") {
    for (int version : {1, 2}) {
        for (const auto& m : codec::link_edition(version)->models) {
            for (const auto& g : codec::link_edition(version)->gpus) {
                std::string link = "v=" + std::to_string(version) + "&mp=" + m.id + "&gpu=" + g.id;
                INFO(link);
                auto r = codec::decode_link(link);
                CHECK(r.ok());
                CHECK(validate(r.scenario).empty());
            }
        }
    }
    auto gpt2 = codec::decode_link("#v=1&mp=gpt2");
    CHECK(gpt2.ok());
    CHECK(gpt2.notes.size() == 1);
    CHECK(evaluate(gpt2.scenario).ok());
}

TEST_CASE("issue 10.3: h=4096&a=30 resets only the heads and says so once") {
    auto r = codec::decode_link("v=1&h=4096&a=30&L=40&b=2");
    REQUIRE(r.issues.size() == 1);
    CHECK(r.issues[0].field == "model.hidden_size");
    CHECK(r.issues[0].message ==
          "must be divisible by model.num_heads (4096 is not a multiple of 30); or set model.head_dim — reset "
          "model.num_heads to the default (32)");
    CHECK(r.scenario.model.hidden_size == 4096);
    CHECK(r.scenario.model.num_heads == 32);
    CHECK(r.scenario.model.layers == 40);
    CHECK(r.scenario.training.micro_batch_size == 2);
    CHECK(validate(r.scenario).empty());

    // Three rules broken by one field: three problems, each once, one field reset.
    auto tp = codec::decode_link("v=1&N=8&t=3&L=40");
    CHECK(tp.issues.size() == 3);
    for (std::size_t i = 0; i < tp.issues.size(); ++i)
        for (std::size_t j = i + 1; j < tp.issues.size(); ++j)
            CHECK_FALSE((tp.issues[i].field == tp.issues[j].field && tp.issues[i].message == tp.issues[j].message));
    for (const auto& i : tp.issues) CHECK(i.message.ends_with("— reset parallel.tensor to the default (1)"));
    CHECK(tp.scenario.parallel.tensor == 1);
    CHECK(tp.scenario.parallel.num_gpus == 8);
    CHECK(tp.scenario.model.layers == 40);

    // A model preset's values are the link's defaults: a reset goes back to the preset.
    auto preset = codec::decode_link("v=2&mp=llama-2-70b&a=63");
    REQUIRE_FALSE(preset.issues.empty());
    CHECK(preset.scenario.model.num_heads == 64);
    CHECK(preset.scenario.model.name == "Llama-2-70B");
}

// ── 4. Markdown: user text escaped, lines intact ─────────────────────────────────────────────

TEST_CASE("issue 10.4: the issue's Markdown injection link copies inert text") {
    const char* link = "#v=1&name=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&gpu=%5Bclick%5D(javascript%3Aalert(1))";
    auto r = codec::decode_link(link);
    REQUIRE(r.ok());
    std::string md = estimate_to_markdown(r.scenario, estimate(r.scenario), ByteUnits::gib, "");
    CHECK(md.rfind("**&lt;img src=x onerror=alert(1)&gt;** on 8 × \\[click\\](javascript:alert(1)) — ", 0) == 0);
    auto cli = run_clean({"--link", link, "--markdown"});
    CHECK(cli.exit_code == 0);
    CHECK(cli.out.rfind("**&lt;img src=x onerror=alert(1)&gt;** on 8 × \\[click\\](javascript:alert(1)) — ", 0) == 0);
}

TEST_CASE("issue 10.4: escaping covers every Markdown and HTML metacharacter, never cuts a character") {
    CHECK(escape_markdown("\\`*_[]|~!#<>&") == "\\\\\\`\\*\\_\\[\\]\\|\\~\\!\\#&lt;&gt;&amp;");
    CHECK(escape_markdown("a\r\nb\tc\x7f" "d") == "a  b c d");
    CHECK(escape_markdown("x\xc2\x85y") == "x y");              // U+0085 NEXT LINE
    CHECK(escape_markdown("x\xe2\x80\xa8y") == "x y");          // U+2028 LINE SEPARATOR
    CHECK(escape_markdown("x\xe2\x80\x8by\xef\xbb\xbf") == "xy");  // zero-width space, BOM
    CHECK(escape_markdown("x\xffy") == "x\xef\xbf\xbdy");       // not UTF-8: U+FFFD
    std::string long_label;
    for (int i = 0; i < 300; ++i) long_label += "\xc3\xa9";    // é
    std::string cut = escape_markdown(long_label);
    CHECK(valid_utf8(cut));
    CHECK(utf8_length(cut) == max_text_length + 1);             // 200 characters and "…"
    CHECK(cut.ends_with("…"));

    // A label at the longest the rule allows keeps the table's lines as they are.
    Scenario plain, hostile;
    hostile.model.name = std::string(199, '|') + "#";
    hostile.hardware.gpu.clear();
    for (int i = 0; i < 66; ++i) hostile.hardware.gpu += "]\xe7\xae\x97(";  // 198 characters
    REQUIRE(validate(hostile).empty());
    auto lines = [](const std::string& text) { return std::count(text.begin(), text.end(), '\n'); };
    std::string a = estimate_to_markdown(plain, estimate(plain), ByteUnits::gib, "https://x/#v=2");
    std::string b = estimate_to_markdown(hostile, estimate(hostile), ByteUnits::gib, "https://x/#v=2");
    CHECK(lines(a) == lines(b));
    CHECK(b.substr(b.find('\n')) == a.substr(a.find('\n')));  // everything after the title is the same
    // A link that is not what the codec writes cannot break out of its angle brackets.
    std::string evil = estimate_to_markdown(plain, estimate(plain), ByteUnits::gib, "https://x/#a>b <c\n)");
    CHECK(evil.find("(<https://x/#a%3Eb%20%3Cc%0A)>)") != std::string::npos);
}

// ── 5. Control and invisible formatting characters in every text field ───────────────────────

TEST_CASE("issue 10.5: the text rule rejects every control and format character, and only those") {
    const char32_t rejected[] = {0x00, 0x09, 0x0A, 0x1B, 0x1F, 0x7F, 0x80, 0x85, 0x9F, 0xAD, 0x600, 0x61C, 0x6DD,
                                 0x180E, 0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A, 0x202E,
                                 0x2060, 0x2064, 0x2066, 0x2069, 0x206F, 0xFEFF, 0xFFF9, 0xFFFB, 0x110BD, 0x1D173,
                                 0xE0001, 0xE0041, 0xE007F};
    const char32_t accepted[] = {0x20, 0x7E, 0xA0, 0xAC, 0xAE, 0x5FF, 0x606, 0x200A, 0x2010, 0x2027, 0x202F, 0x205F,
                                 0x2065 /* unassigned */, 0x2070, 0xFEFE, 0xFFFC, 0xFFFD, 0x1F680, 0xE0080};
    auto utf8 = [](char32_t c) {
        std::string s;
        if (c < 0x80) s += char(c);
        else if (c < 0x800) s += char(0xC0 | (c >> 6)), s += char(0x80 | (c & 0x3F));
        else if (c < 0x10000) s += char(0xE0 | (c >> 12)), s += char(0x80 | ((c >> 6) & 0x3F)), s += char(0x80 | (c & 0x3F));
        else
            s += char(0xF0 | (c >> 18)), s += char(0x80 | ((c >> 12) & 0x3F)), s += char(0x80 | ((c >> 6) & 0x3F)),
                s += char(0x80 | (c & 0x3F));
        return s;
    };
    for (char32_t c : rejected) {
        INFO(std::hex << unsigned(c));
        CHECK(is_control_or_format(c));
        CHECK(text_field_problem("ab" + utf8(c)).find("at character 3") != std::string::npos);
    }
    for (char32_t c : accepted) {
        INFO(std::hex << unsigned(c));
        CHECK_FALSE(is_control_or_format(c));
        CHECK(text_field_problem("ab" + utf8(c)).empty());
    }
    CHECK(text_field_problem("x\xe2\x80\xae") ==
          "must not contain control or invisible formatting characters (U+202E at character 2)");
    CHECK(visible_text("a\xe2\x80\xae" "b\xff\x1b") == "a\xef\xbf\xbd" "b\xef\xbf\xbd\xef\xbf\xbd");
}

TEST_CASE("issue 10.5: control characters are rejected in every text field, in every decoder") {
    const std::string bad[] = {std::string("a\0b", 3), "\x1b[2J", "\xe2\x80\xae" "123", "a\xc2\x85", "x\xe2\x81\xa6",
                               "zero\xe2\x80\x8bwidth", "\xef\xbb\xbf" "bom", "tag\xf3\xa0\x81\x81"};
    for (const auto& f : scenario_fields()) {
        if (f.kind != FieldKind::text) continue;
        for (const auto& text : bad) {
            INFO(f.path << " " << codec::printable(text, 80));
            Scenario s;
            f.set_text(s, text);
            // A field that parses its text (training.lora_targets keeps a set of linears) cannot hold
            // the characters: it holds "invalid", and the rule names the field.
            bool stored_verbatim = f.get_text(s) == text;
            CHECK(names(validate(s), f.path, stored_verbatim ? "control or invisible formatting characters" : ""));
            // JSON
            std::string path = f.path;
            json j;
            j[path.substr(0, path.find('.'))][path.substr(path.find('.') + 1)] = text;
            CHECK(names(codec::scenario_from_json(j).issues, f.path, "control or invisible"));
            // link
            auto r = codec::decode_link("v=2&" + std::string(f.url_key) + "=" + codec::percent_encode(text));
            CHECK(names(r.issues, f.path, "control or invisible"));
            CHECK(validate(r.scenario).empty());
            // CLI
            auto c = run_clean({std::string("--") + f.path, text, "--json"});
            CHECK(c.exit_code == 2);
            CHECK(json_names(errors_of(c), f.path));
        }
    }
    // The terminal-clearing link of the issue: rejected, nothing of it printed raw.
    auto clear = run_clean({"--link", "v=1&gpu=%1B%5B2J"});
    CHECK(clear.exit_code == 2);
    CHECK(clear.err.find("hardware.gpu: must not contain control or invisible formatting characters (U+001B") !=
          std::string::npos);
}

TEST_CASE("issue 10.5: messages quote user text escaped") {
    CHECK(codec::printable("a\x1b[2J\xe2\x80\xae\xff\"\\z", 100) == "a\\x1B[2J\\u202E\\xFF\\\"\\\\z");
    CHECK(codec::printable("\xe7\xae\x97\xe7\xae\x97", 4) == "\xe7\xae\x97");  // never half a character
    CHECK(codec::printable("ab\x1b", 4) == "ab");                              // nor half an escape
    CHECK(codec::excerpt("abcdef", 3) == "abc…");
    CHECK(codec::excerpt("abc", 3) == "abc");
    auto r = codec::decode_link("v=1&%1B%5B31m=1&x%E2%80%AE=2");
    for (const auto& i : r.issues) {
        CHECK(clean_text(i.field));
        CHECK(clean_text(i.message));
    }
    CHECK(names(r.issues, "\\x1B[31m", "unknown link key"));
    auto j = codec::scenario_from_json_text("{\"\\u001b[2J\": 1, \"model\": {\"\\u202e\": 2}}");
    CHECK(names(j.issues, "\\x1B[2J", "unknown section"));
    CHECK(names(j.issues, "model.\\u202E", "unknown field"));
}

// ── 6. Bounded reads, bounded reports, duplicate keys, strict numbers ────────────────────────

TEST_CASE("issue 10.6: files and stdin are read up to 1 MiB, directories named as such") {
    using vramcalc::testing::run_cli;
    auto zero = run_cli("--config /dev/zero --json");
    CHECK(zero.exit_code == 2);
    CHECK(zero.err == "error: --config: cannot read file \"/dev/zero\": it is larger than 1,048,576 bytes (1 MiB); "
                      "stopped reading there\n");
    auto hf = run_cli("--hf-config /dev/zero");
    CHECK(hf.exit_code == 2);
    CHECK(hf.err.find("--hf-config: cannot read file \"/dev/zero\": it is larger than") != std::string::npos);
    auto dir = run_cli("--config /tmp");
    CHECK(dir.exit_code == 2);
    CHECK(dir.err == "error: --config: cannot read file \"/tmp\": it is a directory\n");
    auto ds_dir = run_cli("--deepspeed-config /");
    CHECK(ds_dir.err.find("it is a directory") != std::string::npos);
    std::string big = "{\"model\": {\"name\": \"" + std::string(cli::max_input_bytes, 'x') + "\"}}";
    auto in = run_cli("--config - --json", big);
    CHECK(in.exit_code == 2);
    CHECK(in.err.find("cannot read standard input: it is larger than 1,048,576 bytes") != std::string::npos);
    // Exactly at the limit is read.
    std::string fits = "{}" + std::string(cli::max_input_bytes - 2, ' ');
    CHECK(run_cli("--config - --json", fits).exit_code == 0);

    auto r = cli::read_file("/dev/zero", 1000);
    CHECK(r.ok);
    CHECK(r.text.size() == 1000);
    CHECK(cli::read_file("/", 10).problem == "it is a directory");
    CHECK(cli::read_file("/nonexistent/x", 10).problem == "No such file or directory");
}

TEST_CASE("issue 10.6: a file of thousands of unknown keys lists 100 problems and counts the rest") {
    std::string text = "{\"model\": {";
    for (int i = 0; i < 50000; ++i) text += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":0";
    text += "}}";
    REQUIRE(text.size() < cli::max_input_bytes);
    auto decoded = codec::scenario_from_json_text(text);
    REQUIRE(decoded.issues.size() == codec::max_reported_issues);
    CHECK(decoded.issues.back().field == "json");
    CHECK(decoded.issues.back().message == "… and 49901 more problems (only the first 99 are listed)");
    auto r = run_clean({"--config", "-", "--json"}, text);
    CHECK(r.exit_code == 2);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') <= long(cli::max_printed_lines));
    CHECK(errors_of(r).size() <= cli::max_printed_lines);

    std::string link = "v=1";
    for (int i = 0; i < 1000; ++i) link += "&z" + std::to_string(i) + "=1";
    auto l = codec::decode_link(link);
    CHECK(l.issues.size() == codec::max_reported_issues);
    CHECK(l.issues.back().message == "… and 901 more problems (only the first 99 are listed)");
    // Issue 22.8: the page counted the 100 lines (not the 1,000 problems) the API's list stands for.
    CHECK(codec::problem_count(l.issues) == 1000);
    CHECK(codec::problem_count(decoded.issues) == 50000);
    CHECK(codec::problem_count(codec::decode_link("v=2&z1=1&z2=1").issues) == 2);
    CHECK(codec::problem_count({}) == 0);
    // A message that merely begins like the count is one problem.
    CHECK(codec::problem_count({{"model.name", "… and 5 more"}}) == 1);
}

TEST_CASE("issue 10.6: duplicate JSON keys and repeated link keys are errors naming the key") {
    auto layers = codec::scenario_from_json_text(R"({"model":{"layers":-5,"layers":32}})");
    REQUIRE_FALSE(layers.ok());
    CHECK(layers.issues[0].field == "model.layers");
    CHECK(layers.issues[0].message == "is given more than once (duplicate JSON key); give it once");
    CHECK(names(codec::scenario_from_json_text(R"({"model":{},"training":{},"model":{}})").issues, "model", "duplicate"));
    CHECK(codec::scenario_from_json_text(R"({"model":{"layers":32},"training":{"layers":32}})").issues.size() == 1);
    auto deep = codec::scenario_from_json_text(R"({"x":[{"a":1,"a":2}],"hardware":{"gpu":"H100-SXM","gpu":"x"}})");
    CHECK(names(deep.issues, "x[].a", "duplicate"));
    CHECK(names(deep.issues, "hardware.gpu", "duplicate"));
    auto cli = run_clean({"--config", "-", "--json"}, R"({"model":{"layers":-5,"layers":32}})");
    CHECK(cli.exit_code == 2);
    CHECK(json_names(errors_of(cli), "model.layers"));

    auto hf = codec::import_hf_config(R"({"model_type":"llama","hidden_size":4096,"hidden_size":8192})");
    CHECK(names(hf.issues, "hidden_size", "duplicate"));
    auto ds = codec::import_deepspeed_config(R"({"zero_optimization":{"stage":1,"stage":3}})");
    CHECK(names(ds.issues, "zero_optimization.stage", "duplicate"));

    auto repeated = codec::decode_link("v=1&L=8&L=16&b=2");
    CHECK(names(repeated.issues, "model.layers", "is given 2 times in the link (key \"L\"); ignored"));
    CHECK(repeated.scenario.model.layers == 32);
    CHECK(repeated.scenario.training.micro_batch_size == 2);
    auto presets = codec::decode_link("v=1&mp=gpt2&mp=llama-2-7b");
    CHECK(names(presets.issues, "model.preset", "is given 2 times"));
    CHECK(presets.scenario.model.name == "GPT-3 6.7B");
    auto versions = codec::decode_link("v=1&v=2&L=8");
    CHECK(names(versions.issues, "v", "is given 2 times"));
    CHECK(versions.scenario.model.layers == 8);
    CHECK(codec::decode_link("v=1&embed=1&embed=1").ok());
}

TEST_CASE("issue 10.6: numbers and escapes are parsed strictly") {
    std::string out;
    CHECK_FALSE(codec::percent_decode("%-1", out));
    CHECK_FALSE(codec::percent_decode("%+F", out));
    CHECK_FALSE(codec::percent_decode("% F", out));
    CHECK_FALSE(codec::percent_decode("%4", out));
    CHECK(codec::percent_decode("%4a%4A", out));
    CHECK(out == "JJ");

    double v = 0;
    for (const char* bad : {"0x10", "  5", " 5", "5 ", "+5", "5.", ".5", "inf", "-inf", "nan", "NAN", "infinity", "1e",
                            "1e+", "--1", "1_000", "1,5", "0x1p3", "", "1e5x", "٣"}) {
        INFO(bad);
        CHECK(codec::read_number(bad, v) == codec::NumberText::not_a_number);
    }
    for (const char* far : {"1e400", "-1e400", "1e-400", "1e-320", "4.9e-324"}) {
        INFO(far);
        CHECK(codec::read_number(far, v) == codec::NumberText::out_of_range);
    }
    for (auto [text, value] : {std::pair{"5", 5.0}, {"-0", 0.0}, {"0.5", 0.5}, {"1e9", 1e9}, {"1E9", 1e9},
                               {"1.56e13", 1.56e13}, {"2e-3", 2e-3}, {"0e-400", 0.0}, {"007", 7.0}}) {
        INFO(text);
        CHECK(codec::read_number(text, v) == codec::NumberText::ok);
        CHECK(v == value);
    }

    auto r = codec::decode_link("v=1&h=%-1&L=0x10&s=%20%205&P=1e-300&b=inf&N=nan&t=+2&p=1.");
    CHECK(names(r.issues, "link", "malformed item \"h=%-1\""));
    CHECK(names(r.issues, "model.layers", "must be an integer written in decimal digits (got \"0x10\")"));
    CHECK(names(r.issues, "training.seq_len", "(got \"  5\")"));
    CHECK(names(r.issues, "model.params_override", "must be 0 (count from the architecture)"));
    CHECK(names(r.issues, "training.micro_batch_size"));
    CHECK(names(r.issues, "parallel.num_gpus"));
    CHECK(names(r.issues, "parallel.tensor"));
    CHECK(names(r.issues, "parallel.pipeline"));
    CHECK(r.scenario.model.layers == 32);
    CHECK(r.scenario.model.params_override == 0);
    CHECK(validate(r.scenario).empty());
    auto flags = run_clean({"--layers", "0x10", "--seq-len", " 5", "--params-override", "1e-300", "--json"});
    CHECK(flags.exit_code == 2);
    for (const char* field : {"model.layers", "training.seq_len", "model.params_override"})
        CHECK(json_names(errors_of(flags), field));
}

// ── Issue 22: round three ────────────────────────────────────────────────────────────────────

TEST_CASE("issue 22.1: --plan on one GPU finds the offloaded layouts the estimator finds") {
    std::vector<std::string> base = {"--model-preset", "llama-3-8b", "--gpu", "H100-SXM", "--num-gpus", "1"};
    auto fits = run_clean({base[0], base[1], base[2], base[3], base[4], base[5], "--zero-stage", "1",
                           "--offload-optimizer", "--json"});
    REQUIRE(fits.exit_code == 0);
    CHECK(json::parse(fits.out)["fits"] == true);
    std::vector<std::string> plan_args = base;
    plan_args.insert(plan_args.end(), {"--plan", "--json"});
    auto planned = run_clean(plan_args);
    REQUIRE(planned.exit_code == 0);
    json plans = json::parse(planned.out)["plans"];
    REQUIRE(!plans.empty());
    CHECK(plans[0]["layout"]["offload_optimizer"] == true);
    CHECK(plans[0]["layout"]["zero_stage"].get<int>() >= 1);
    plan_args.pop_back();
    auto text = run_clean(plan_args);
    CHECK(text.out.starts_with("Layouts for 1 GPU, global batch "));
}

namespace {
// A scenario that breaks the rule of `field`: the CLI refuses it naming the field, and a link with
// it is repaired as every link that breaks a rule (the field is reset, and said); returns that link.
codec::DecodeResult check_rule_in_cli_and_link(const std::string& field, std::vector<std::string> cli_args,
                                               const char* link) {
    auto cli = run_clean(std::move(cli_args));
    CHECK(cli.exit_code == 2);
    CHECK(json_names(errors_of(cli), field));
    auto decoded = codec::decode_link(link);
    CHECK(names(decoded.issues, field, "reset " + field));
    return decoded;
}
}  // namespace

TEST_CASE("issue 22.2: ZeRO stage 0 with optimizer offload breaks one rule, named in every face") {
    Scenario s;
    s.parallel.zero_stage = 0;
    s.parallel.offload_optimizer = true;
    CHECK(names(validate(s), "parallel.offload_optimizer", "needs parallel.zero_stage 1, 2 or 3"));
    CHECK_FALSE(is_valid(s));
    s.parallel.zero_stage = 1;
    CHECK(validate(s).empty());
    auto link = check_rule_in_cli_and_link("parallel.offload_optimizer", {"--zero-stage", "0", "--offload-optimizer", "--json"},
                                           "v=2&z=0&off=1");
    CHECK(link.scenario.parallel.zero_stage == 0);
    CHECK_FALSE(link.scenario.parallel.offload_optimizer);
}

// DeepSpeed offloads parameters only with ZeRO-3 (deepspeed/runtime/zero/offload_config.py,
// DeepSpeedZeroOffloadParamConfig: "Set options for parameter offload. Valid only with stage 3.").
// Before this rule, stage 1 with offload_params moved the optimizer states to the host silently.
TEST_CASE("parameter offload below ZeRO stage 3 breaks one rule, named in every face") {
    Scenario s;
    s.parallel.offload_params = true;
    for (int stage : {0, 1, 2}) {
        INFO("stage " << stage);
        s.parallel.zero_stage = stage;
        CHECK(names(validate(s), "parallel.offload_params",
                    "needs parallel.zero_stage 3 (DeepSpeed offloads parameters only with ZeRO-3; stage is " +
                        std::to_string(stage) + ")"));
        CHECK_FALSE(is_valid(s));
    }
    s.parallel.zero_stage = 3;
    CHECK(validate(s).empty());
    auto link = check_rule_in_cli_and_link("parallel.offload_params", {"--zero-stage", "2", "--offload-params", "--json"},
                                           "v=3&z=1&offp=1");
    CHECK_FALSE(link.scenario.parallel.offload_params);
    // The planner searches ZeRO-3 only for a scenario that offloads parameters, and finds it.
    Scenario big = s;
    REQUIRE(apply_model_preset(big, "llama-3-8b"));
    REQUIRE(apply_gpu_preset(big, "H100-SXM"));
    big.parallel.num_gpus = 8;
    big.parallel.zero_stage = 1;
    PlanOptions options;
    CHECK(plan_issues(big, options).empty());
    PlanResult r = plan(big, options);
    REQUIRE_FALSE(r.plans.empty());
    for (const auto& p : r.plans) CHECK(p.scenario.parallel.zero_stage == 3);
}

TEST_CASE("issue 22.4: JSON nested deeper than 64 levels is refused before it is parsed, in every decoder") {
    const std::string deep = "{\"model\":" + std::string(60'000, '[');
    const std::string rule = "is nested deeper than 64 levels (objects and arrays inside each other) at byte ";
    std::string problem;
    json j;
    CHECK_FALSE(codec::parse_json_text(deep, j, problem));
    CHECK(problem == rule + "72; not read");  // '{' at byte 0 is level 1, '[' at 9 level 2, at 72 level 65
    CHECK(names(codec::scenario_from_json_text(deep).issues, "json", rule));
    CHECK(names(codec::import_hf_config(deep).issues, "json", rule));
    CHECK(names(codec::import_deepspeed_config(deep).issues, "json", rule));
    for (const char* flag : {"--config", "--hf-config", "--deepspeed-config"}) {
        auto r = run_clean({flag, "-", "--json"}, deep);
        INFO(flag);
        CHECK(r.exit_code == 2);
        CHECK(r.err.find(rule) != std::string::npos);
    }
    // Brackets inside strings do not count; 64 levels are read (and then judged as values).
    CHECK(codec::parse_json_text("{\"a\":\"" + std::string(100, '[') + "\\\"[\"}", j, problem));
    CHECK(codec::parse_json_text(std::string(64, '[') + std::string(64, ']'), j, problem));
    CHECK_FALSE(codec::parse_json_text(std::string(65, '[') + std::string(65, ']'), j, problem));
    // The duplicate-key finder still names a nested key by its whole path.
    auto dup = codec::scenario_from_json_text(R"({"x":[[{"y":{"a":1,"a":2}}]]})");
    CHECK(names(dup.issues, "x[][].y.a", "duplicate"));
}

TEST_CASE("issue 22.8: messages name the rule that was broken") {
    // An HF count beyond 2^53 (a double cannot hold it exactly) or 1e308.
    for (const char* layers : {"9007199254740993", "1e308"}) {
        auto hf = codec::import_hf_config(std::string(R"({"model_type":"llama","num_hidden_layers":)") + layers + "}");
        INFO(layers);
        CHECK(names(hf.issues, "num_hidden_layers", "must be an integer from 1 to 2^53 = 9007199254740992 (got "));
    }
    // Text after the JSON value: where it starts, not "byte 0".
    std::string problem;
    json j;
    CHECK_FALSE(codec::parse_json_text(R"({"model":{}} x)", j, problem));
    CHECK(problem == "is not valid JSON (text after the JSON value at byte 13)");
    // A null ZeRO stage is an error (DeepSpeed's config types it 0-3), not the base's stage kept.
    auto ds = codec::import_deepspeed_config(R"({"zero_optimization":{"stage":null}})");
    CHECK(names(ds.issues, "zero_optimization.stage", "must be an integer from 0 to 3 (got null)"));
    // --plan with 7 GPUs: a DP = 1, p = 7 layout exists, so the CLI searches, as the JS API does.
    auto seven = run_clean({"--model-preset", "llama-3-8b", "--num-gpus", "7", "--plan", "--json"});
    CHECK(seven.exit_code == 0);
    CHECK(json::parse(seven.out)["searched"].get<int>() > 0);
    auto million = run_clean({"--model-preset", "llama-3-8b", "--num-gpus", "1000000", "--plan", "--json"});
    CHECK(million.exit_code == 2);
    CHECK(million.err.find("error: parallel.num_gpus: must be at most ") != std::string::npos);
    // The planner reads the batch fields before its rules: out of range, they are named, never multiplied.
    auto huge = run_clean({"--plan", "--num-gpus", "100000000", "--micro-batch-size", "1000000000", "--grad-accum-steps",
                           "1000000000", "--global-batch-size", "0", "--json"});
    CHECK(huge.exit_code == 2);
    CHECK(json_names(errors_of(huge), "training.grad_accum_steps"));
    auto far = run_clean({"--plan", "--num-gpus", "67108864", "--micro-batch-size", "9007199254740991", "--json"});
    CHECK(far.exit_code == 2);
    CHECK(json_names(errors_of(far), "training.micro_batch_size"));
}

TEST_CASE("issue 22.2: a DeepSpeed config with stage 0 and offload_optimizer is reported, not offloaded") {
    Scenario base;
    auto r = codec::import_deepspeed_config(R"({"zero_optimization":{"stage":0,"offload_optimizer":{"device":"cpu"}}})", base);
    CHECK(names(r.issues, "zero_optimization.offload_optimizer.device",
                "needs zero_optimization.stage 1, 2 or 3: DeepSpeed offloads optimizer states only with ZeRO"));
    CHECK_FALSE(r.scenario.parallel.offload_optimizer);
    auto legacy = codec::import_deepspeed_config(R"({"zero_optimization":{"stage":0,"cpu_offload":true}})", base);
    CHECK(names(legacy.issues, "zero_optimization.cpu_offload", "needs zero_optimization.stage 1, 2 or 3"));
    // Stage 0 with device "none", or no offload at all: nothing to report.
    CHECK(codec::import_deepspeed_config(R"({"zero_optimization":{"stage":0,"offload_optimizer":{"device":"none"}}})").issues.empty());
    auto cli = run_clean({"--deepspeed-config", "-", "--json"}, R"({"zero_optimization":{"stage":0,"offload_optimizer":{"device":"nvme"}}})");
    CHECK(cli.exit_code == 2);
    CHECK(cli.err.find("zero_optimization.offload_optimizer.device: needs zero_optimization.stage 1, 2 or 3") != std::string::npos);
}

TEST_CASE("issue 22.7: the planner for 10^8 GPUs tries only the tensor degrees the heads allow (the page blocked 4.7 s)") {
    // #v=2&N=100000000&t=8&p=8&B=0&ga=1: the Plan panel searched t = 1 … N (and its chart up to 8·N).
    auto link = codec::decode_link("v=2&N=100000000&t=8&p=8&B=0&ga=1");
    REQUIRE(link.ok());
    const auto start = std::chrono::steady_clock::now();
    PlanResult r = plan(link.scenario, {});
    std::vector<ScalingPoint> chart = plan_scaling(link.scenario, {12500000, 100000000, 800000000}, {});
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK(seconds < 1.0);  // milliseconds now; the search up to N took seconds (more under the sanitizers)
    REQUIRE_FALSE(r.plans.empty());
    for (const auto& p : r.plans) {
        CHECK(link.scenario.model.num_heads % p.scenario.parallel.tensor == 0);
        CHECK(p.scenario.parallel.num_gpus == 100000000);
    }
    CHECK(chart.size() == 3);
}

TEST_CASE("serving: extreme but valid inputs keep every output finite; absurd ones are named") {
    Scenario s;
    s.workload = Workload::inference;
    s.model.position_embedding = PositionEmbedding::rope;
    for (Engine engine : {Engine::vllm, Engine::sglang, Engine::trtllm, Engine::llamacpp, Engine::hf}) {
        s.inference.engine = engine;
        s.inference.weight_format = engine == Engine::llamacpp ? WeightFormat::gguf_q2_k : WeightFormat::gptq;
        s.inference.context_len = 100'000'000;   // the largest context the rules allow
        s.inference.concurrency = 1'000'000'000;
        s.inference.max_batched_tokens = 100'000'000;
        s.inference.prompt_tokens = 100'000'000;
        s.inference.output_tokens = 100'000'000;
        s.inference.quant_group_size = -1;
        INFO(int(engine));
        REQUIRE(validate(s).empty());
        CHECK(finite_outputs(s));
        Estimate e = estimate(s);
        CHECK_FALSE(e.fits);
        s.inference.context_len = 1;  // the smallest
        s.inference.concurrency = 1;
        s.inference.prompt_tokens = 1;
        s.inference.output_tokens = 1;
        s.inference.max_batched_tokens = 1;
        CHECK(finite_outputs(s));
    }
    Scenario bad = s;
    bad.inference.concurrency = 0;
    bad.inference.gpu_memory_utilization = std::numeric_limits<double>::quiet_NaN();
    bad.inference.gpu_layers = -2;
    bad.inference.quant_group_size = -7;
    auto issues = validate(bad);
    CHECK(names(issues, "inference.concurrency", "must be an integer from 1"));
    CHECK(names(issues, "inference.gpu_memory_utilization", "not a finite number"));
    CHECK(names(issues, "inference.gpu_layers", "from -1"));
    CHECK(names(issues, "inference.quant_group_size", "-1 (one group per column)"));
    // an enum member out of range (a fuzzer writes any double into a choice field) is an error, not a crash
    bad = s;
    bad.inference.weight_format = static_cast<WeightFormat>(99);
    CHECK(names(validate(bad), "inference.weight_format"));
}
