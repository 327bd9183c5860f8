// Parameter counts against published numbers. Each reference names its source.
#include <catch2/catch.hpp>

#include "core/estimate.hpp"
#include "core/model/presets.hpp"

using namespace vramcalc;

namespace {

double count(const char* preset_id) {
    const ModelPreset* preset = find_model_preset(preset_id);
    REQUIRE(preset != nullptr);
    Scenario s;
    s.model = preset->model;
    return estimate(s).parameters.total;
}

}  // namespace

TEST_CASE("exact parameter counts of public architectures") {
    // Hugging Face `gpt2` checkpoint: model.num_parameters() = 124,439,808 (Radford et al. 2019, 117M/124M).
    CHECK(count("gpt2") == 124439808.0);
    // Touvron et al. 2023 (Llama 2) checkpoints as counted by transformers.
    CHECK(count("llama-2-7b") == 6738415616.0);
    CHECK(count("llama-2-13b") == 13015864320.0);
    // Llama-2-70B uses GQA with 8 KV heads.
    CHECK(count("llama-2-70b") == 68976648192.0);
    // Meta Llama-3-8B model card: 8,030,261,248.
    CHECK(count("llama-3-8b") == 8030261248.0);
    // Mistral-7B-v0.1: 7,241,732,096.
    CHECK(count("mistral-7b") == 7241732096.0);
    // Black et al. 2022, GPT-NeoX-20B (untied embeddings): 20,554,567,680.
    CHECK(count("gpt-neox-20b") == 20554567680.0);
    // Biderman et al. 2023 (Pythia), Table 1 total parameters.
    CHECK(count("pythia-1b") == 1011781632.0);
    CHECK(count("pythia-6.9b") == 6857302016.0);
    CHECK(count("pythia-12b") == 11846072320.0);
    // Qwen2.5-7B model card: 7.61B = 7,615,616,512 (QKV biases only).
    CHECK(count("qwen2.5-7b") == 7615616512.0);
    // Gemma 7B: 8,537,680,896 (head_dim 256, tied embeddings).
    CHECK(count("gemma-7b") == 8537680896.0);
    // Llama 3.1 405B: 405,853,388,800.
    CHECK(count("llama-3.1-405b") == 405853388800.0);
}

TEST_CASE("every preset with a published count matches it") {
    for (const auto& preset : model_presets()) {
        if (preset.published_params <= 0) continue;
        INFO(preset.id);
        Scenario s;
        s.model = preset.model;
        CHECK(estimate(s).parameters.total == preset.published_params);
    }
}

TEST_CASE("rounded published sizes of presets without an exact count") {
    // Brown et al. 2020, Table 2.1 sizes (rounded): 125M, 350M, 760M, 2.7B, 6.7B, 175B.
    CHECK(count("gpt3-125m") == Approx(125e6).epsilon(0.01));
    CHECK(count("gpt3-350m") == Approx(350e6).epsilon(0.02));
    CHECK(count("gpt3-760m") == Approx(760e6).epsilon(0.01));
    CHECK(count("gpt3-2.7b") == Approx(2.7e9).epsilon(0.02));
    CHECK(count("gpt3-6.7b") == Approx(6.7e9).epsilon(0.01));
    CHECK(count("gpt3-175b") == Approx(175e9).epsilon(0.01));
    // Touvron et al. 2023 (LLaMA), Table 2: 65.2B.
    CHECK(count("llama-65b") == Approx(65.2e9).epsilon(0.002));
}

TEST_CASE("mixture of experts: total and active parameters") {
    // Jiang et al. 2024 (Mixtral of Experts): 46.7B total, 12.9B active per token (top-2 of 8).
    const ModelPreset* preset = find_model_preset("mixtral-8x7b");
    REQUIRE(preset);
    Scenario s;
    s.model = preset->model;
    Estimate e = estimate(s);
    CHECK(e.parameters.total == 46702792704.0);
    CHECK(e.parameters.active == Approx(12.9e9).epsilon(0.005));
    CHECK(e.parameters.active < e.parameters.total);
}

TEST_CASE("parameter breakdown adds up and follows the architecture") {
    Scenario s;
    s.model = find_model_preset("gpt2")->model;
    Estimate e = estimate(s);
    const auto& p = e.parameters;
    CHECK(p.embedding + p.layers + p.final_norm + p.lm_head == p.total);
    // GPT-2: wte 50257·768 + wpe 1024·768.
    CHECK(p.embedding == 50257.0 * 768 + 1024.0 * 768);
    // 12h² + 13h per GPT-2 layer (weights 12h², biases 9h, two LayerNorms 4h).
    CHECK(p.per_layer == 12.0 * 768 * 768 + 13.0 * 768);
    CHECK(p.lm_head == 0);  // tied

    s.model.tied_embeddings = false;
    CHECK(estimate(s).parameters.total == p.total + 50257.0 * 768);
}

TEST_CASE("params_override replaces the architecture's count") {
    Scenario s;
    s.model.params_override = 7.5e9;
    Estimate e = estimate(s);
    CHECK(e.parameters.total == 7.5e9);
    CHECK(e.parameters.overridden);
}

TEST_CASE("exact parameter counts of the fine-tuning presets (issue 11)") {
    // Hugging Face Hub safetensors totals (parameters, not buffers), also printed by KerasHub preset
    // metadata or GGUF general.parameter_count; each preset's `source` names where.
    // Llama 3.1 8B / 70B (meta-llama/Llama-3.1-*B; KerasHub llama3.1_8b "params": 8030261248).
    CHECK(count("llama-3.1-8b") == 8030261248.0);
    CHECK(count("llama-3.1-70b") == 70553706496.0);
    // Llama 3.2 1B / 3B: tied embeddings (KerasHub lists untied counts for these; the real models tie).
    CHECK(count("llama-3.2-1b") == 1235814400.0);
    CHECK(count("llama-3.2-3b") == 3212749824.0);
    // Llama 3.3 70B Instruct: the Llama 3.1 70B architecture.
    CHECK(count("llama-3.3-70b") == 70553706496.0);
    // Qwen2.5 (KerasHub qwen2.5_*_en metadata; GGUF for 14B): QKV biases, tied up to 3B.
    CHECK(count("qwen2.5-0.5b") == 494032768.0);
    CHECK(count("qwen2.5-1.5b") == 1543714304.0);
    CHECK(count("qwen2.5-3b") == 3085938688.0);
    CHECK(count("qwen2.5-14b") == 14770033664.0);
    CHECK(count("qwen2.5-32b") == 32763876352.0);
    // Gemma 2 (KerasHub gemma2_*_en metadata): four norms per layer; two would give 119,808 /
    // 301,056 / 423,936 fewer (2·L·h).
    CHECK(count("gemma-2-2b") == 2614341888.0);
    CHECK(count("gemma-2-9b") == 9241705984.0);
    CHECK(count("gemma-2-27b") == 27227128320.0);
    // Phi-3 / Phi-3.5 mini (KerasHub phi3_mini_4k_instruct_en: 3,821,079,552), medium, Phi-4.
    CHECK(count("phi-3-mini-4k") == 3821079552.0);
    CHECK(count("phi-3.5-mini") == 3821079552.0);
    CHECK(count("phi-3-medium-4k") == 13960238080.0);
    CHECK(count("phi-4") == 14659507200.0);
    // Phi-3-small: the technical report gives 7.392B only; with biases on every linear the
    // architecture has 7,392,272,384 (without them 7,390,896,128 = 7.391B).
    CHECK(count("phi-3-small-8k") == Approx(7.392e9).margin(0.5e6));
    // Mistral NeMo 12B: head_dim 128 (attention width 4096 < h = 5120).
    CHECK(count("mistral-nemo-12b") == 12247782400.0);
}

TEST_CASE("DeepSeekMoE 16B: shared experts, a dense first layer, narrow experts") {
    // deepseek-ai/deepseek-moe-16b-base: 16,375,728,128 parameters (safetensors total); Dai et al. 2024
    // (DeepSeekMoE, arXiv:2401.06066) Table: 2.8B activated parameters; the model's own count of
    // activated parameters, embeddings included, is 2,828,650,496.
    const ModelPreset* p = find_model_preset("deepseek-moe-16b");
    REQUIRE(p != nullptr);
    Scenario s;
    s.model = p->model;
    Estimate e = estimate(s);
    CHECK(e.parameters.total == 16375728128.0);
    CHECK(e.parameters.active == 2828650496.0);
    // Without the new fields (64 experts of 1408 in every layer, no shared experts) the total would
    // almost match by accident but the active count would be 17 % low.
    Scenario plain = s;
    plain.model.ffn_hidden_size = 1408;
    plain.model.moe_ffn_hidden_size = 0;
    plain.model.num_shared_experts = 0;
    plain.model.dense_layers = 0;
    CHECK(estimate(plain).parameters.active < 0.85 * e.parameters.active);
}
