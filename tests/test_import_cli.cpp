// vramcalc --hf-config / --deepspeed-config end to end: the imported scenario, notes on stderr,
// errors naming the imported file's key, flags after the import overriding it.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_runner.hpp"

namespace {

using Run = vramcalc::testing::CliRun;
using vramcalc::testing::run_cli;

std::string temp_file(const std::string& name, const std::string& text) {
    std::string path = "/tmp/vramcalc_import_cli_" + std::to_string(::getpid()) + "_" + name;
    std::ofstream(path) << text;
    return path;
}

// mistralai/Mixtral-8x7B-v0.1 config.json (tests/data/hf/README.md).
const std::string mixtral = std::string(VRAMCALC_SOURCE_DIR) + "/tests/data/hf/mixtral_8x7b.json";

}  // namespace

TEST_CASE("CLI --hf-config and --deepspeed-config build the scenario; notes go to stderr") {
    const std::string& hf = mixtral;
    std::string ds = temp_file("ds.json", R"({"bf16": {"enabled": true}, "zero_optimization": {"stage": 3,
        "offload_optimizer": {"device": "cpu"}, "overlap_comm": true}, "train_micro_batch_size_per_gpu": 2,
        "gradient_accumulation_steps": 4})");
    Run r = run_cli("--num-gpus 16 --hf-config " + hf + " --deepspeed-config " + ds + " --json");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    auto j = nlohmann::json::parse(r.out);
    CHECK(j["parameters"]["total"].get<double>() == 46702792704.0);  // Mixtral 8x7B: 46.7B
    CHECK(j["scenario"]["model"]["name"] == "Mixtral-8x7B");
    CHECK(j["scenario"]["parallel"]["zero_stage"] == 3);
    CHECK(j["scenario"]["parallel"]["offload_optimizer"] == true);
    CHECK(j["scenario"]["parallel"]["zero3_live_params"].get<double>() == 1e9);
    CHECK(j["scenario"]["parallel"]["num_gpus"] == 16);
    CHECK(j["layout"]["global_batch_size"].get<double>() == 2 * 4 * 16);
    CHECK(r.err.find("note: hf-config: ignored (metadata): architectures, torch_dtype, transformers_version") !=
          std::string::npos);
    CHECK(r.err.find("router_aux_loss_coef") != std::string::npos);
    CHECK(r.err.find("note: deepspeed-config: ") != std::string::npos);
    CHECK(r.err.find("zero_optimization.overlap_comm") != std::string::npos);

    // Flags after the import override it.
    Run o = run_cli("--hf-config " + hf + " --layers 16 --json");
    REQUIRE(o.exit_code == 0);
    CHECK(nlohmann::json::parse(o.out)["scenario"]["model"]["layers"] == 16);
    std::remove(ds.c_str());
}

TEST_CASE("CLI import errors exit 2 and name the key of the imported file") {
    std::string bad = temp_file("bad.json", R"({"model_type": "llama", "hidden_size": "4096"})");
    Run r = run_cli("--hf-config " + bad);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("error: hf-config: hidden_size: must be an integer") != std::string::npos);
    CHECK(r.err.find("error: hf-config: num_hidden_layers: is missing") != std::string::npos);

    std::string ds = temp_file("bad_ds.json", R"({"zero_optimization": {"stage": 5}})");
    Run d = run_cli("--deepspeed-config " + ds);
    CHECK(d.exit_code == 2);
    CHECK(d.err.find("error: deepspeed-config: zero_optimization.stage:") != std::string::npos);

    Run missing = run_cli("--hf-config /nonexistent/config.json");
    CHECK(missing.exit_code == 2);
    CHECK(missing.err.find("--hf-config: cannot read file") != std::string::npos);
    std::remove(bad.c_str());
    std::remove(ds.c_str());
}
