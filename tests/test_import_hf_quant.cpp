// Hugging Face config.json import, part 2: quantization_config → inference.weight_format and the
// text_config nesting of vision-language models. Fixtures: tests/data/hf/ (README names each Hub
// repository). Expected values: the published checkpoint sizes and parameter counts named per case.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "codec/hf_multimodal.hpp"
#include "codec/import_hf.hpp"
#include "core/estimate.hpp"
#include "core/model/presets.hpp"

using namespace vramcalc;
using codec::import_hf_config;
using nlohmann::json;

namespace {

std::string fixture(const char* name) {
    std::ifstream in(std::string(VRAMCALC_SOURCE_DIR) + "/tests/data/hf/" + name + ".json", std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    REQUIRE(!text.str().empty());
    return text.str();
}

codec::ImportResult imported(const char* name) {
    auto r = import_hf_config(fixture(name));
    INFO((r.issues.empty() ? std::string() : r.issues.front().field + ": " + r.issues.front().message));
    REQUIRE(r.ok());
    return r;
}

// The checkpoint's bytes as the serving estimate counts them (vLLM, one GPU of ample memory).
double checkpoint_bytes(Scenario s) {
    s.workload = Workload::inference;
    s.hardware.memory_gib = 1000;
    s.inference.context_len = 2048;
    Evaluation ev = evaluate(s);
    INFO((ev.errors.empty() ? std::string() : ev.errors.front().field + ": " + ev.errors.front().message));
    REQUIRE(ev.ok());
    return ev.estimate.inference.weights_total_bytes;
}

bool has_issue(const codec::ImportResult& r, const std::string& field, const std::string& fragment) {
    return std::any_of(r.issues.begin(), r.issues.end(), [&](const ValidationIssue& i) {
        return i.field == field && i.message.find(fragment) != std::string::npos;
    });
}

bool has_note(const codec::ImportResult& r, const std::string& fragment) {
    return std::any_of(r.notes.begin(), r.notes.end(), [&](const std::string& n) { return n.find(fragment) != std::string::npos; });
}

// llama2_7b.json with `quantization` as its quantization_config.
codec::ImportResult with_quantization(const json& quantization) {
    json config = json::parse(fixture("llama2_7b"));
    config["quantization_config"] = quantization;
    return import_hf_config(config.dump());
}

double text_parameters(const Scenario& s) { return estimate(s).parameters.total; }

}  // namespace

TEST_CASE("AWQ and GPTQ configs set the format and the group size", "[import][hf][quant]") {
    auto awq = imported("llama2_7b_awq");  // TheBloke/Llama-2-7B-AWQ
    CHECK(awq.scenario.inference.weight_format == WeightFormat::awq);
    CHECK(awq.scenario.inference.quant_group_size == 128);
    // The published model.safetensors: 3.89 GB.
    CHECK(checkpoint_bytes(awq.scenario) == Approx(3.89e9).epsilon(0.02));

    auto gptq = imported("llama2_7b_gptq");  // TheBloke/Llama-2-7B-GPTQ (main: 4-bit, group 128, desc_act false)
    CHECK(gptq.scenario.inference.weight_format == WeightFormat::gptq);
    CHECK(gptq.scenario.inference.quant_group_size == 128);
    CHECK(checkpoint_bytes(gptq.scenario) == Approx(3.90e9).epsilon(0.02));  // model.safetensors 3.90 GB

    auto per_column = with_quantization({{"quant_method", "gptq"}, {"bits", 4}, {"group_size", -1}, {"desc_act", true}});
    REQUIRE(per_column.ok());
    CHECK(per_column.scenario.inference.quant_group_size == -1);
    CHECK(has_note(per_column, "desc_act true"));
}

TEST_CASE("fp8, compressed-tensors and bitsandbytes configs", "[import][hf][quant]") {
    auto fp8 = imported("llama3_8b_fp8");  // neuralmagic AutoFP8 checkpoints: per-tensor, lm_head ignored
    CHECK(fp8.scenario.inference.weight_format == WeightFormat::fp8);
    CHECK(has_note(fp8, "ignored_layers"));

    auto dynamic = imported("llama3_8b_fp8_dynamic");  // RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8-dynamic
    CHECK(dynamic.scenario.inference.weight_format == WeightFormat::fp8_channel);

    auto w4 = imported("llama3_8b_w4a16");  // RedHatAI/Meta-Llama-3.1-8B-Instruct-quantized.w4a16
    CHECK(w4.scenario.inference.weight_format == WeightFormat::awq);
    CHECK(w4.scenario.inference.quant_group_size == 128);
    CHECK(has_note(w4, "no zero points"));

    auto bnb = imported("llama3_8b_bnb_4bit");  // unsloth/llama-3-8b-bnb-4bit: model.safetensors 5.70 GB
    CHECK(bnb.scenario.inference.weight_format == WeightFormat::nf4);
    CHECK(checkpoint_bytes(bnb.scenario) == Approx(5.70e9).epsilon(0.03));

    // DeepSeek-V3's block: {"quant_method": "fp8", "fmt": "e4m3", "weight_block_size": [128, 128]}.
    auto block = with_quantization({{"quant_method", "fp8"}, {"fmt", "e4m3"}, {"activation_scheme", "dynamic"},
                                    {"weight_block_size", {128, 128}}});
    REQUIRE(block.ok());
    CHECK(block.scenario.inference.weight_format == WeightFormat::fp8_block);

    auto eight = with_quantization({{"load_in_8bit", true}});  // older bitsandbytes configs: no quant_method
    REQUIRE(eight.ok());
    CHECK(eight.scenario.inference.weight_format == WeightFormat::int8);

    // gpt-oss: {"quant_method": "mxfp4", "modules_to_not_convert": [attention, router, embeddings, lm_head]}.
    json mixtral = json::parse(fixture("mixtral_8x7b"));
    mixtral["quantization_config"] = {{"quant_method", "mxfp4"},
                                      {"modules_to_not_convert",
                                       {"model.layers.*.self_attn", "model.layers.*.mlp.router", "model.embed_tokens", "lm_head"}}};
    auto mx = import_hf_config(mixtral.dump());
    REQUIRE(mx.ok());
    CHECK(mx.scenario.inference.weight_format == WeightFormat::mxfp4);
    CHECK(has_note(mx, "which the format leaves 16-bit here too"));
}

TEST_CASE("absurd quantization values: an error naming the field and the rule", "[import][hf][quant][hostile]") {
    auto awq = [](json bits, json group) {
        return with_quantization({{"quant_method", "awq"}, {"bits", bits}, {"group_size", group}});
    };
    CHECK(has_issue(awq(0, 128), "quantization_config.bits", "from 2 to 8"));
    CHECK(has_issue(awq(3.7, 128), "quantization_config.bits", "must be an integer (got 3.7)"));
    CHECK(has_issue(awq(3, 128), "quantization_config.bits", "bits must be 4"));
    CHECK(has_issue(awq("4", 128), "quantization_config.bits", "must be an integer"));
    CHECK(has_issue(awq(4, 0), "quantization_config.group_size", "from 1 to 1024"));
    CHECK(has_issue(awq(4, 1099511627776.0), "quantization_config.group_size", "from 1 to 1024"));
    CHECK(has_issue(awq(4, -2), "quantization_config.group_size", "-1 = one group per column"));
    CHECK(has_issue(with_quantization({{"quant_method", "awq"}, {"group_size", 128}}), "quantization_config.bits", "is missing"));

    CHECK(has_issue(with_quantization({{"quant_method", "hqq"}}), "quantization_config.quant_method",
                    "is not a supported quantisation method (supported: awq, gptq"));
    CHECK(has_issue(with_quantization({{"bits", 4}}), "quantization_config.quant_method", "is missing"));
    CHECK(has_issue(with_quantization(json::array({1, 2})), "quantization_config", "must be an object"));
    CHECK(has_issue(with_quantization({{"quant_method", "fp8"}, {"weight_block_size", {64, 64}}}),
                    "quantization_config.weight_block_size", "only 128×128 blocks"));
    CHECK(has_issue(with_quantization({{"quant_method", "fp8"}, {"weight_block_size", 128}}),
                    "quantization_config.weight_block_size", "must be a pair"));
    CHECK(has_issue(with_quantization({{"load_in_4bit", true}, {"load_in_8bit", true}}),
                    "quantization_config.load_in_8bit", "cannot be true together"));
    CHECK(has_issue(with_quantization({{"quant_method", "bitsandbytes"}, {"load_in_4bit", true}, {"bnb_4bit_quant_type", "int3"}}),
                    "quantization_config.bnb_4bit_quant_type", "must be nf4 or fp4"));
    json mixed = {{"quant_method", "compressed-tensors"},
                  {"config_groups", {{"a", {{"weights", {{"num_bits", 8}, {"type", "float"}}}}},
                                     {"b", {{"weights", {{"num_bits", 4}, {"type", "int"}, {"strategy", "group"}, {"group_size", 128}}}}}}}};
    CHECK(has_issue(with_quantization(mixed), "quantization_config.config_groups.b.weights", "mixing weight schemes"));
    json nvfp4 = {{"quant_method", "compressed-tensors"},
                  {"config_groups", {{"g", {{"weights", {{"num_bits", 4}, {"type", "float"}, {"strategy", "tensor_group"}}}}}}}};
    CHECK(has_issue(with_quantization(nvfp4), "quantization_config.config_groups.g.weights.num_bits", "not modelled"));
    // Nothing of a refused config is applied.
    CHECK(awq(0, 128).scenario.inference.weight_format == WeightFormat::bf16);
}

TEST_CASE("vision-language configs: the text model, the vision tower counted", "[import][hf][vlm]") {
    // google/gemma-3-4b-pt: the text model is the gemma-3-4b preset (3,880,263,168); SigLIP 416,866,032 +
    // projector 2,949,120 + 1,152 — the checkpoint's published total 4,300,079,472 less the text model.
    auto gemma = imported("gemma3_4b");
    CHECK(gemma.scenario.model.name == find_model_preset("gemma-3-4b")->model.name);
    CHECK(text_parameters(gemma.scenario) == 3880263168.0);
    CHECK(has_note(gemma, "419,816,304 parameters"));
    CHECK(codec::hf_vision_parameters(json::parse(fixture("gemma3_4b")), 2560) == 4300079472.0 - 3880263168.0);

    // meta-llama/Llama-4-Scout-17B-16E-Instruct: vision encoder 871,932,416 (safetensors total less the text model).
    auto scout = imported("llama4_scout");
    CHECK(scout.scenario.model.num_experts == 16);
    CHECK(scout.scenario.model.max_position_embeddings == 10485760);
    CHECK(has_note(scout, "871,932,416 parameters"));
    CHECK(text_parameters(scout.scenario) + 871932416.0 == 108641793536.0);

    // mistralai/Mistral-Small-3.1-24B-Base-2503: text 23,572,403,200; published total 24,011,361,280.
    auto mistral = imported("mistral_small_31_24b");
    CHECK(text_parameters(mistral.scenario) == 23572403200.0);
    CHECK(has_note(mistral, "438,958,080 parameters"));

    // Qwen/Qwen2.5-VL-7B-Instruct (flat: the text keys at the top level): text = Qwen2.5-7B's
    // 7,615,616,512; published total 8,292,166,656.
    auto qwen = imported("qwen25_vl_7b");
    CHECK(text_parameters(qwen.scenario) == 7615616512.0);
    CHECK(has_note(qwen, "676,550,144 parameters"));
}

TEST_CASE("vision-language configs: problems name the nested key", "[import][hf][vlm][hostile]") {
    json config = json::parse(fixture("mistral_small_31_24b"));
    config["text_config"]["hidden_size"] = -5;
    CHECK(has_issue(import_hf_config(config.dump()), "text_config.hidden_size", "must be an integer from 1"));

    json gemma = json::parse(fixture("gemma3_4b"));
    gemma["text_config"]["num_hidden_layers"] = 35;  // no Gemma 3 has 35 layers of 2560
    CHECK(has_issue(import_hf_config(gemma.dump()), "text_config.model_type", "no preset has this shape"));
    gemma["text_config"]["num_hidden_layers"] = 1e300;
    CHECK(has_issue(import_hf_config(gemma.dump()), "text_config.num_hidden_layers", "must be a positive integer"));

    // quantization_config at the top level of a VLM (Qwen2.5-VL-7B-Instruct-AWQ) keeps its own name.
    json awq = json::parse(fixture("qwen25_vl_7b"));
    awq["quantization_config"] = {{"quant_method", "awq"}, {"bits", 4}, {"group_size", 128}, {"modules_to_not_convert", {"visual"}}};
    auto r = import_hf_config(awq.dump());
    REQUIRE(r.ok());
    CHECK(r.scenario.inference.weight_format == WeightFormat::awq);
    awq["quantization_config"]["bits"] = 0;
    CHECK(has_issue(import_hf_config(awq.dump()), "quantization_config.bits", "from 2 to 8"));

    json vision = json::parse(fixture("gemma3_4b"));
    vision["vision_config"]["hidden_size"] = "wide";
    CHECK(!codec::hf_vision_parameters(vision, 2560).has_value());
    CHECK(has_note(import_hf_config(vision.dump()), "vision tower (vision_config) not counted"));
}
