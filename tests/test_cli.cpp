// The vramcalc command end to end: exit codes, JSON output, errors on stderr naming the field.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>

#include "cli_runner.hpp"

namespace {
using Run = vramcalc::testing::CliRun;
using vramcalc::testing::run_cli;
}  // namespace

TEST_CASE("CLI reproduces the Llama-65B activations of \"LLM parameters, VRAM, TFLOPs? Training part 5\" from flags") {
    Run r = run_cli("--layers 80 --hidden-size 8192 --num-heads 64 --vocab-size 32000 --max-position-embeddings 2048 "
                    "--seq-len 2048 --micro-batch-size 1 --num-gpus 1 --zero-stage 0 --global-batch-size 0 "
                    "--grad-accum-steps 1 --json");
    REQUIRE(r.exit_code == 0);
    auto j = nlohmann::json::parse(r.out);
    CHECK(j["activations"]["transformer_layers_bytes"].get<double>() == 153008209920.0);
}

TEST_CASE("CLI reads a JSON config from stdin and flags override it") {
    Run r = run_cli("--config - --json --zero-stage 3",
                    R"({"model": {"preset": "llama-2-7b"}, "parallel": {"num_gpus": 8, "zero3_live_params": 0}})");
    REQUIRE(r.exit_code == 0);
    auto j = nlohmann::json::parse(r.out);
    CHECK(j["parameters"]["total"].get<double>() == 6738415616.0);
    CHECK(j["scenario"]["parallel"]["zero_stage"] == 3);
    // ZeRO-3 over DP = 8: 2-byte weights / 8.
    CHECK(j["memory_per_gpu_bytes"]["weights"].get<double>() == 6738415616.0 * 2 / 8);
}

TEST_CASE("CLI table states its units") {
    Run gib = run_cli("");
    REQUIRE(gib.exit_code == 0);
    CHECK(gib.out.find("GiB = 2^30 bytes") != std::string::npos);
    Run gb = run_cli("--gb");
    CHECK(gb.out.find("GB = 10^9 bytes") != std::string::npos);
}

TEST_CASE("CLI invalid input: exit 2, each problem on stderr naming the field") {
    Run r = run_cli("--hidden-size 4100 --zero-stage 7");
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("model.hidden_size") != std::string::npos);
    CHECK(r.err.find("parallel.zero_stage") != std::string::npos);

    Run bad_json = run_cli("--config - --json", "{\"model\": {\"layers\": \"x\"}");
    CHECK(bad_json.exit_code == 2);
    CHECK(bad_json.err.find("json") != std::string::npos);

    Run unknown = run_cli("--layerz 3");
    CHECK(unknown.exit_code == 2);
    CHECK(unknown.err.find("--layerz") != std::string::npos);

    Run missing = run_cli("--config /nonexistent/file.json");
    CHECK(missing.exit_code == 2);
    CHECK(missing.err.find("cannot read") != std::string::npos);

    Run json_errors = run_cli("--num-heads 0 --json");
    CHECK(json_errors.exit_code == 2);
    auto j = nlohmann::json::parse(json_errors.out);
    CHECK(j["errors"][0]["field"] == "model.num_heads");
}

TEST_CASE("CLI: an empty --link, a v=3 link and no link are the same scenario, today's defaults (issue 21)") {
    // The scenario of issue 21: Llama-3.1-8B on 8 × H100, ZeRO-3, s = 4,500. An empty link read as
    // link version 1 once (no CUDA context, no allocator reserve: 3.7–4 GiB per GPU lower).
    const std::string flags = " --model-preset llama-3.1-8b --gpu H100-SXM --num-gpus 8 --zero-stage 3 --seq-len 4500 --json";
    Run plain = run_cli(flags);
    REQUIRE(plain.exit_code == 0);
    auto defaults = nlohmann::json::parse(plain.out);
    CHECK(defaults["scenario"]["hardware"]["cuda_context_gib"] == 0.5);
    CHECK(defaults["scenario"]["hardware"]["allocator_overhead"] == 0.05);
    for (const char* link : {"--link ''", "--link '#'", "--link 'v=3'", "--link '#v=3&theme=dark'"}) {
        INFO(link);
        Run r = run_cli(link + flags);
        REQUIRE(r.exit_code == 0);
        auto j = nlohmann::json::parse(r.out);
        CHECK(j["scenario"] == defaults["scenario"]);
        CHECK(j["memory_per_gpu_bytes"] == defaults["memory_per_gpu_bytes"]);
    }
    Run link = run_cli("--link '' --print-link");
    REQUIRE(link.exit_code == 0);
    CHECK(link.out.rfind("v=3\n", 0) == 0);  // no ctx=0&alloc=0
}

TEST_CASE("CLI link in, link out") {
    Run r = run_cli("--link 'v=1&mp=mistral-7b&b=2' --print-link --json");
    REQUIRE(r.exit_code == 0);
    // A v1 link in, the same scenario as v3 out: version 1 trained every preset with dropout and knew
    // no ZeRO-3 live parameters, CUDA context or allocator reserve, so v3 spells those out.
    CHECK(r.out.rfind("v=3&mp=mistral-7b&b=2&drop=1&live=0&ctx=0&alloc=0\n", 0) == 0);
}
