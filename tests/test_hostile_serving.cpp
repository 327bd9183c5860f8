// Hostile input for the serving faces (issue 24): the .gguf import through the CLI, absurd
// inference.* values through the JSON, link and CLI decoders. Each is a clear error naming the
// field and the rule, exit status 2, never a crash.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>

#include "cli_runner.hpp"
#include "codec/codec.hpp"

using namespace vramcalc;
using vramcalc::testing::run_cli;

namespace {

bool names(const std::vector<ValidationIssue>& issues, const std::string& field, const std::string& fragment) {
    for (const auto& i : issues)
        if (i.field == field && i.message.find(fragment) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST_CASE("serving: --gguf reads a header; hostile files are named, exit 2", "[gguf][cli][hostile]") {
    const std::string fixture = std::string(VRAMCALC_SOURCE_DIR) + "/tests/data/gguf/llama-gqa-Q4_0.header.gguf";
    auto ok = run_cli("--gguf " + fixture + " --json");
    CHECK(ok.exit_code == 0);
    CHECK(ok.out.find("\"weight_format\": \"gguf-q4_0\"") != std::string::npos);
    CHECK(ok.err.find("note: gguf: tensor data 24,680,448 bytes exactly") != std::string::npos);

    auto zero = run_cli("--gguf /dev/zero");  // 64 MiB of zeros: not GGUF, read no further
    CHECK(zero.exit_code == 2);
    CHECK(zero.err.find("error: gguf: not a GGUF file") != std::string::npos);
    auto dir = run_cli("--gguf /tmp");
    CHECK(dir.exit_code == 2);
    CHECK(dir.err.find("--gguf: cannot read file \"/tmp\": it is a directory") != std::string::npos);

    const std::string path = "/tmp/vramcalc_hostile_" + std::to_string(::getpid()) + ".gguf";
    {  // "GGUF", version 3, 2^40 tensors, 0 pairs
        std::ofstream out(path, std::ios::binary);
        const unsigned char head[24] = {'G', 'G', 'U', 'F', 3, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        out.write(reinterpret_cast<const char*>(head), sizeof head);
    }
    auto huge = run_cli("--gguf " + path);
    std::remove(path.c_str());
    CHECK(huge.exit_code == 2);
    CHECK(huge.err.find("the header claims 1099511627776 tensors (at most 1048576)") != std::string::npos);
}

TEST_CASE("serving: absurd inference values are named in JSON, links and the CLI", "[serving][hostile]") {
    // Decoding problems first (a wrong type or choice); range rules once the values decode.
    auto json = codec::scenario_from_json_text(
        R"({"workload": "inference", "inference": {"weight_format": "q9", "kv_cache_dtype": 8, "engine": "tgi"}})");
    CHECK(names(json.issues, "inference.weight_format", "must be one of"));
    CHECK(names(json.issues, "inference.kv_cache_dtype", ""));
    CHECK(names(json.issues, "inference.engine", ""));
    auto ranges = codec::scenario_from_json_text(
        R"({"workload": "inference", "inference": {"quant_group_size": 1099511627776, "context_len": 0}})");
    CHECK(names(ranges.issues, "inference.quant_group_size", ""));
    CHECK(names(ranges.issues, "inference.context_len", ""));

    auto link = codec::decode_link("v=2&wl=inference&iw=gguf-q9&ig=0&ic=1e300&in=-4");
    CHECK(names(link.issues, "inference.weight_format", ""));
    CHECK(names(link.issues, "inference.quant_group_size", ""));
    CHECK(names(link.issues, "inference.context_len", ""));
    CHECK(names(link.issues, "inference.concurrency", ""));

    auto cli = run_cli("--workload inference --inference.quant_group_size 1099511627776 --inference.weight_format awq");
    CHECK(cli.exit_code == 2);
    CHECK(cli.err.find("inference.quant_group_size") != std::string::npos);
    // GGUF formats need llama.cpp: the rule is named, not repaired.
    auto engine = run_cli("--workload inference --inference.weight_format gguf-q4_k_m --inference.engine vllm");
    CHECK(engine.exit_code == 2);
    CHECK(engine.err.find("inference.weight_format") != std::string::npos);
}

TEST_CASE("serving: absurd inference.sampler and inference.weight_bytes_override are named", "[serving][hostile]") {
    // Decoding problems first (an unknown choice); range rules once the values decode.
    auto json = codec::scenario_from_json_text(R"({"workload": "inference", "inference": {"sampler": "triton"}})");
    CHECK(names(json.issues, "inference.sampler", ""));
    CHECK(names(codec::scenario_from_json_text(R"({"inference": {"sampler": 7}})").issues, "inference.sampler", ""));
    auto negative = codec::scenario_from_json_text(R"({"workload": "inference", "inference": {"weight_bytes_override": -1}})");
    CHECK(names(negative.issues, "inference.weight_bytes_override", "must be 0 (from the format)"));
    auto huge = codec::scenario_from_json_text(R"({"inference": {"weight_bytes_override": 1e300}})");
    CHECK(names(huge.issues, "inference.weight_bytes_override", ""));
    auto link = codec::decode_link("v=3&wl=inference&is=nope&iwb=nan");
    CHECK(names(link.issues, "inference.sampler", ""));
    CHECK(names(link.issues, "inference.weight_bytes_override", ""));
    auto cli = run_cli("--workload inference --inference.weight_bytes_override 1e20");
    CHECK(cli.exit_code == 2);
    CHECK(cli.err.find("inference.weight_bytes_override") != std::string::npos);
    // The CLI's --gguf: the file's bytes are the weights, and the JSON says so.
    const std::string fixture = std::string(VRAMCALC_SOURCE_DIR) + "/tests/data/gguf/llama-gqa-Q4_0.header.gguf";
    auto ok = run_cli("--gguf " + fixture + " --json");
    CHECK(ok.exit_code == 0);
    CHECK(ok.out.find("\"weight_bytes_override\": 24680448") != std::string::npos);
    CHECK(ok.out.find("\"weights_total_bytes\": 24680448") != std::string::npos);
}
