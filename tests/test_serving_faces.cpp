// Serving through every face: CLI flags and JSON, the link, the scenario JSON round trip.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>

#include "cli_runner.hpp"
#include "codec/codec.hpp"
#include "core/explain.hpp"
#include "core/outputs.hpp"

using namespace vramcalc;
using vramcalc::testing::run_cli;

TEST_CASE("CLI: --workload inference with inference flags answers the serving question", "[serving][cli]") {
    auto r = run_cli("--model-preset llama-2-7b --gpu H100-SXM --workload inference --engine llamacpp "
                     "--weight-format gguf-q4_k_m --context-len 4096 --concurrency 2 --json");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    auto j = nlohmann::json::parse(r.out);
    CHECK(j["scenario"]["workload"] == "inference");
    CHECK(j["scenario"]["inference"]["weight_format"] == "gguf-q4_k_m");
    // Llama-2-7B MHA, f16 cache: n_ctx = 2 × 4096 cells of 32 · 32 · 128 · 2 · 2 B
    CHECK(j["memory_per_gpu_bytes"]["kv_cache"].get<double>() == 8192.0 * 524288);
    CHECK(j["inference"]["kv_pool_tokens"].get<double>() == 8192);
    CHECK(j["inference"]["weights_total_bytes"].get<double>() == Approx(4.08e9).epsilon(0.02));
    CHECK(j["performance"]["decode_tokens_per_second"].get<double>() > 0);
    CHECK_FALSE(j.contains("compute"));  // training's outputs are not part of a serving estimate
    CHECK(j["fits"] == true);
}

TEST_CASE("CLI: the serving report and --explain", "[serving][cli]") {
    auto r = run_cli("--model-preset llama-3-8b --workload inference --concurrency 16 --explain");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("served by vllm") != std::string::npos);
    CHECK(r.out.find("KV pool tokens") != std::string::npos);
    CHECK(r.out.find("TM101") != std::string::npos);
    CHECK(r.out.find("pool = u·M − weights") != std::string::npos);  // the explain term of the pool
    CHECK(r.out.find("Training time") == std::string::npos);
    auto bad = run_cli("--workload inference --weight-format gguf-q4_0");  // GGUF on vLLM
    CHECK(bad.exit_code == 2);
    CHECK(bad.err.find("inference.weight_format") != std::string::npos);
}

TEST_CASE("links: serving fields travel only when set, old links keep their meaning", "[serving][link]") {
    Scenario s;
    CHECK(codec::encode_link(s).find("wl=") == std::string::npos);  // a training link is what it was
    s.workload = Workload::inference;
    s.model.position_embedding = PositionEmbedding::rope;  // GPT-3's learned 2048 positions would cap the context
    s.inference.engine = Engine::sglang;
    s.inference.weight_format = WeightFormat::awq;
    s.inference.context_len = 32768;
    s.inference.concurrency = 8;
    std::string link = codec::encode_link(s);
    CHECK(link.find("wl=inference") != std::string::npos);
    auto back = codec::decode_link(link);
    REQUIRE(back.ok());
    CHECK(back.scenario.workload == Workload::inference);
    CHECK(back.scenario.inference.engine == Engine::sglang);
    CHECK(back.scenario.inference.weight_format == WeightFormat::awq);
    CHECK(back.scenario.inference.context_len == 32768);
    CHECK(back.scenario.inference.concurrency == 8);
    // a link from before serving existed decodes as training
    auto old = codec::decode_link("v=2&mp=llama-3-8b&b=4");
    REQUIRE(old.ok());
    CHECK(old.scenario.workload == Workload::training);
}

TEST_CASE("scenario JSON: workload at the top, inference as a section, both round-trip", "[serving][json]") {
    auto r = codec::scenario_from_json_text(
        R"({"workload": "inference", "model": "llama-3-8b", "inference": {"engine": "trtllm", "kv_cache_dtype": "fp8"}})");
    INFO((r.issues.empty() ? std::string() : r.issues.front().field + ": " + r.issues.front().message));
    REQUIRE(r.ok());
    CHECK(r.scenario.workload == Workload::inference);
    CHECK(r.scenario.inference.engine == Engine::trtllm);
    CHECK(r.scenario.inference.kv_cache_dtype == KvCacheDtype::fp8);
    auto again = codec::scenario_from_json(codec::scenario_to_json(r.scenario));
    REQUIRE(again.ok());
    CHECK(codec::scenario_to_json(again.scenario) == codec::scenario_to_json(r.scenario));
    auto bad = codec::scenario_from_json_text(R"({"workload": "serving"})");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.issues.front().field == "workload");
}

// A new user's first question: "serve the default model". GPT-3 6.7B has 2,048 learned positions
// (Brown et al. 2020, n_ctx = 2048), fewer than the default context of 8,192 tokens: every face
// lowers the context to them with a note, as the page's Train | Serve switch does, unless the input
// sets the context itself (then it is an error naming the field, as vLLM refuses such a max_model_len).
TEST_CASE("serving the default model: the context is lowered to its learned positions in every face", "[serving][faces]") {
    const std::string note = "lowered from 8192 to 2048: GPT-3 6.7B has 2048 learned positions";
    SECTION("CLI") {
        auto r = run_cli("--workload inference --json");
        INFO(r.err);
        REQUIRE(r.exit_code == 0);
        auto j = nlohmann::json::parse(r.out);
        CHECK(j["scenario"]["inference"]["context_len"] == 2048);
        CHECK(r.err.find("inference.context_len: " + note) != std::string::npos);
        auto given = run_cli("--workload inference --context-len 8192");
        CHECK(given.exit_code == 2);
        CHECK(given.err.find("inference.context_len: must be at most model.max_position_embeddings (2048)") != std::string::npos);
        // --config: what the JSON sets is what the JSON face decides (an error here), not lowered again
        auto config = run_cli("--config -", R"({"workload": "inference", "inference": {"context_len": 8192}})");
        CHECK(config.exit_code == 2);
        CHECK(config.err.find("inference.context_len: must be at most") != std::string::npos);
    }
    SECTION("link") {
        auto r = codec::decode_link("v=3&wl=inference");
        CHECK(r.ok());
        CHECK(r.scenario.workload == Workload::inference);
        CHECK(r.scenario.inference.context_len == 2048);
        REQUIRE(r.notes.size() == 1);
        CHECK(r.notes[0].field == "inference.context_len");
        CHECK(r.notes[0].message == note);
        CHECK(codec::encode_link(r.scenario) == "v=3&wl=inference&ic=2048");
        auto given = codec::decode_link("v=3&wl=inference&ic=8192");
        CHECK_FALSE(given.ok());  // set by the link: not silently changed
        auto rotary = codec::decode_link("v=3&wl=inference&mp=llama-3.1-8b");  // 131,072 positions: kept
        CHECK(rotary.notes.empty());
        CHECK(rotary.scenario.inference.context_len == 8192);
    }
    SECTION("JSON") {
        auto r = codec::scenario_from_json_text(R"({"workload": "inference"})", Scenario{});
        CHECK(r.issues.empty());
        CHECK(r.scenario.inference.context_len == 2048);
        REQUIRE(r.notes.size() == 1);
        CHECK(r.notes[0].message == note);
        auto given = codec::scenario_from_json_text(R"({"workload": "inference", "inference": {"context_len": 8192}})", Scenario{});
        REQUIRE(given.issues.size() == 1);
        CHECK(given.issues[0].field == "inference.context_len");
    }
}
