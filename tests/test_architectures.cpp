// Architectures of today (issue 24): multi-head latent attention, sliding windows, q/k norms,
// attention sinks and gates, hybrid linear-attention / Mamba stacks. Small examples are counted
// by hand from the module shapes of the cited implementations; preset totals are the published
// exact counts (each names its source). None of the expected numbers is read from the code.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <string>

#include "codec/codec.hpp"
#include "codec/scenario_json.hpp"
#include "core/estimate.hpp"
#include "core/fields.hpp"
#include "core/formulas.hpp"
#include "core/model/presets.hpp"

using namespace vramcalc;

namespace {

const ModelConfig& preset_model(const char* id) {
    const ModelPreset* p = find_model_preset(id);
    REQUIRE(p != nullptr);
    return p->model;
}

ParameterCounts counts_of(const ModelConfig& m) {
    Scenario s;
    s.model = m;
    Evaluation ev = evaluate(s);
    REQUIRE(ev.ok());
    return ev.estimate.parameters;
}

double total(const char* id) { return counts_of(preset_model(id)).total; }

// One layer, h = 64, 4 heads, vocabulary 10, SwiGLU f = 128, RMSNorm, no biases, untied, RoPE:
// everything but attention is 10·64 (embedding) + 2·64 (norms) + 3·64·128 (MLP) + 64 (final norm)
// + 10·64 (LM head) = 25,472.
ModelConfig tiny() {
    ModelConfig m;
    m.name = "tiny";
    m.layers = 1;
    m.hidden_size = 64;
    m.num_heads = 4;
    m.ffn_hidden_size = 128;
    m.vocab_size = 10;
    m.mlp = MlpKind::swiglu;
    m.norm = NormKind::rmsnorm;
    m.bias = false;
    m.tied_embeddings = false;
    m.position_embedding = PositionEmbedding::rope;
    return m;
}
constexpr double tiny_rest = 640 + 128 + 24576 + 64 + 640;

bool has_issue(const Scenario& s, const std::string& field, const std::string& words) {
    for (const auto& i : validate(s))
        if (i.field == field && i.message.find(words) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST_CASE("MLA counts its projections and latent norms") {
    // DeepSeek-V3's modules (HF DeepseekV3Attention) at small widths: q_lora 32, kv_lora 16, RoPE 8,
    // NoPE 16, V 16. q_a_proj 64·32 = 2048, q_a_layernorm 32, q_b_proj 32·4·(16+8) = 3072,
    // kv_a_proj_with_mqa 64·(16+8) = 1536, kv_a_layernorm 16, kv_b_proj 16·4·(16+16) = 2048,
    // o_proj 4·16·64 = 4096: 12,848.
    ModelConfig m = tiny();
    m.kv_lora_rank = 16;
    m.q_lora_rank = 32;
    m.qk_rope_head_dim = 8;
    m.qk_nope_head_dim = 16;
    m.v_head_dim = 16;
    CHECK(counts_of(m).total == tiny_rest + 12848);
    // Without a query latent (DeepSeek-V2-Lite): q_proj 64·4·24 = 6144 replaces 2048 + 32 + 3072.
    m.q_lora_rank = 0;
    CHECK(counts_of(m).total == tiny_rest + 12848 - 5152 + 6144);
}

TEST_CASE("q/k norms, sinks and the output gate") {
    ModelConfig m = tiny();  // attention: 4 × 64·64 = 16,384 (d = 16)
    CHECK(counts_of(m).total == tiny_rest + 16384);
    m.qk_norm = true;  // q_norm and k_norm of d = 16 each
    CHECK(counts_of(m).total == tiny_rest + 16384 + 32);
    m.attention_sinks = true;  // one per head
    CHECK(counts_of(m).total == tiny_rest + 16384 + 32 + 4);
    m.attention_output_gate = true;  // q_proj emits 64 more outputs: 64·64
    CHECK(counts_of(m).total == tiny_rest + 16384 + 32 + 4 + 4096);
    // Qwen3-8B: 36 layers × 2 × 128 q/k norm weights on top of the Llama-shaped count.
    ModelConfig q = preset_model("qwen3-8b");
    q.qk_norm = false;
    CHECK(total("qwen3-8b") - counts_of(q).total == 36.0 * 2 * 128);
}

TEST_CASE("a sliding window changes no parameter and windows the layers the pattern says") {
    ModelConfig m = tiny();
    double plain = counts_of(m).total;
    m.sliding_window = 32;
    CHECK(counts_of(m).total == plain);
    // Gemma 3 27B (text_config layer_types): 62 layers, every 6th global: 10 global, 52 windowed.
    CHECK(formulas::windowed_layer_count(preset_model("gemma-3-27b")) == 52);
    // gpt-oss-20b: 24 layers alternating sliding/full: 12 windowed.
    CHECK(formulas::windowed_layer_count(preset_model("gpt-oss-20b")) == 12);
    // Llama 4: three chunked layers of every four (no_rope_layers): 36 of 48.
    CHECK(formulas::windowed_layer_count(preset_model("llama-4-scout")) == 36);
    // Qwen3-Next: 36 Gated DeltaNet layers, 12 full-attention ones, none windowed.
    CHECK(formulas::linear_layer_count(preset_model("qwen3-next-80b-a3b")) == 36);
    CHECK(formulas::windowed_layer_count(preset_model("qwen3-next-80b-a3b")) == 0);
}

TEST_CASE("hybrid stacks count Gated DeltaNet and Mamba layers") {
    // Four layers, every 4th softmax: 3 linear + 1 attention layer (a = 4, g = 2, d = 16:
    // q 64·64 + k, v 64·32 each + o 64·64 = 12,288).
    ModelConfig m = tiny();
    m.layers = 4;
    m.num_kv_heads = 2;
    m.full_attention_interval = 4;
    m.linear_num_key_heads = 2;
    m.linear_num_value_heads = 4;
    m.linear_key_head_dim = 8;
    m.linear_value_head_dim = 8;
    // HF Qwen3NextGatedDeltaNet with k = 16, v = 32: in_proj_qkvz 64·96 = 6144, in_proj_ba 64·8 =
    // 512, conv1d 64·4 = 256, dt_bias 4, A_log 4, norm 8, out_proj 32·64 = 2048: 8,976.
    const double per_layer_rest = 128 + 24576;  // two norms + MLP
    const double rest = 640 + 4 * per_layer_rest + 64 + 640;
    CHECK(counts_of(m).total == rest + 3 * 8976 + 12288);
    // Mamba (HF JambaMambaMixer) at h = 64, expand 2 (d_i = 128), N = 4, K = 4, R = ceil(64/16) = 4:
    // in_proj 64·256 = 16384, conv1d 128·4 + 128 = 640, x_proj 128·(4 + 8) = 1536, dt_proj 4·128 +
    // 128 = 640, A_log 128·4 = 512, D 128, out_proj 128·64 = 8192, dt/B/C norms 4 + 8: 28,044.
    m.linear_attention = LinearAttention::mamba;
    m.ssm_state_size = 4;
    CHECK(counts_of(m).total == rest + 3 * 28044 + 12288);
}

TEST_CASE("exact totals of the presets of issue 24") {
    // Hugging Face safetensors totals (https://huggingface.co/api/models/<id> "safetensors.total").
    CHECK(total("qwen3-4b") == 4022468096.0);
    CHECK(total("qwen3-8b") == 8190735360.0);
    CHECK(total("qwen3-235b-a22b") == 235093634560.0);
    // KerasHub presets qwen3_14b_en / qwen3_32b_en metadata "params", equal to the safetensors totals.
    CHECK(total("qwen3-14b") == 14768307200.0);
    CHECK(total("qwen3-32b") == 32762123264.0);
    // llama.cpp general.parameter_count of the Qwen3-30B-A3B GGUF.
    CHECK(total("qwen3-30b-a3b") == 30532122624.0);
    // Qwen3-0.6B and 1.7B tie their embeddings, but the checkpoints also store lm_head.weight: the
    // safetensors totals 751,632,384 and 2,031,739,904 count V·h once more.
    CHECK(total("qwen3-0.6b") + 151936.0 * 1024 == 751632384.0);
    CHECK(total("qwen3-1.7b") + 151936.0 * 2048 == 2031739904.0);
    // Model cards: 0.44B and 1.4B parameters without embeddings (rounded).
    CHECK(total("qwen3-0.6b") - 151936.0 * 1024 == Approx(0.44e9).margin(0.005e9));
    CHECK(total("qwen3-1.7b") - 151936.0 * 2048 == Approx(1.4e9).margin(0.05e9));
    // llama.cpp n_params of the qwen3next GGUF (Qwen3-Next-80B-A3B network; the MTP layer is not converted).
    CHECK(total("qwen3-next-80b-a3b") == 79674391296.0);
    // DeepSeek-V3: 671,026,419,200 main-model parameters (README_WEIGHTS.md: 671B + 14B MTP = 685B).
    CHECK(total("deepseek-v3") == 671026419200.0);
    CHECK(total("deepseek-r1") == 671026419200.0);
    // gpt-oss: llama.cpp general.parameter_count; model card (arXiv:2508.10925) Table 1: 20.91B, 116.83B.
    CHECK(total("gpt-oss-20b") == 20914757184.0);
    CHECK(total("gpt-oss-120b") == 116829156672.0);
    // Gemma 3: 1B safetensors total; 4B, 12B, 27B text models: llama.cpp n_params of the text GGUFs.
    CHECK(total("gemma-3-1b") == 999885952.0);
    CHECK(total("gemma-3-4b") == 3880263168.0);
    CHECK(total("gemma-3-12b") == 11766034176.0);
    CHECK(total("gemma-3-27b") == 27009346304.0);
    // Gemma 3 report Table 1, non-embedding parameters (millions, rounded): 698, 3209, 10759, 25600.
    CHECK(total("gemma-3-1b") - 262144.0 * 1152 == Approx(698e6).margin(0.5e6));
    CHECK(total("gemma-3-4b") - 262208.0 * 2560 == Approx(3209e6).margin(0.5e6));
    CHECK(total("gemma-3-12b") - 262208.0 * 3840 == Approx(10759e6).margin(0.5e6));
    CHECK(total("gemma-3-27b") - 262208.0 * 5376 == Approx(25600e6).margin(0.5e6));
    // Mistral Small 3.1's text model = Mistral-Small-24B-Base-2501: safetensors total.
    CHECK(total("mistral-small-3.1-24b") == 23572403200.0);
    // Existing presets the issue names keep their published totals.
    CHECK(total("llama-3.1-8b") == 8030261248.0);
    CHECK(total("llama-3.1-70b") == 70553706496.0);
    CHECK(total("llama-3.3-70b") == 70553706496.0);
    CHECK(total("llama-3.1-405b") == 405853388800.0);
    CHECK(total("phi-4") == 14659507200.0);
}

TEST_CASE("Jamba: a Mamba hybrid within its published rounding") {
    // Hugging Face model page of ai21labs/Jamba-v0.1: 51.6B parameters; Jamba paper (arXiv:2403.19887)
    // Table 1: 12B active. Only rounded figures are published.
    CHECK(total("jamba-v0.1") == Approx(51.6e9).margin(0.05e9));
    CHECK(counts_of(preset_model("jamba-v0.1")).active == Approx(12e9).margin(0.5e9));
    CHECK(formulas::linear_layer_count(preset_model("jamba-v0.1")) == 28);  // 4 attention layers of 32
}

TEST_CASE("Llama 4: text model plus the vision encoder is the checkpoint's total") {
    // Llama4VisionModel (transformers modeling_llama4.py) with vision_config hidden 1408, 34 layers,
    // MLP 5632, patch 14 on 336 px (576 patches + class token), projector 4096 → text hidden 5120:
    //   patch embedding 3·14·14·1408 = 827,904; class embedding 1408; positions 577·1408 = 812,416;
    //   pre/post LayerNorms 4·1408; per layer q,k,v,o with biases 4·(1408² + 1408) + two LayerNorms
    //   4·1408 + fc1/fc2 with biases 2·1408·5632 + 5632 + 1408: 23,807,872 × 34; pixel-shuffle MLP
    //   5632·4096 + 4096·4096; multi_modal_projector 4096·5120.
    const double layer = 4.0 * (1408.0 * 1408 + 1408) + 4.0 * 1408 + 2.0 * 1408 * 5632 + 5632 + 1408;
    const double vision = 827904 + 1408 + 812416 + 4 * 1408 + 34 * layer + 5632.0 * 4096 + 4096.0 * 4096 + 4096.0 * 5120;
    CHECK(vision == 871932416.0);
    // Hugging Face safetensors totals of meta-llama/Llama-4-Scout-17B-16E-Instruct and
    // Llama-4-Maverick-17B-128E-Instruct.
    CHECK(total("llama-4-scout") + vision == 108641793536.0);
    CHECK(total("llama-4-maverick") + vision == 401583781376.0);
    // "17B active" (model cards).
    CHECK(counts_of(preset_model("llama-4-scout")).active == Approx(17e9).margin(0.5e9));
    CHECK(counts_of(preset_model("llama-4-maverick")).active == Approx(17e9).margin(0.5e9));
}

TEST_CASE("active parameters of the MoE presets") {
    // Model cards: 3.3B and 22B activated (3.35B is written 3.3B there: truncated, not rounded).
    CHECK(counts_of(preset_model("qwen3-30b-a3b")).active == Approx(3.3e9).margin(0.1e9));
    CHECK(counts_of(preset_model("qwen3-235b-a22b")).active == Approx(22e9).margin(0.5e9));
    // DeepSeek-V3 report: 37B activated.
    CHECK(counts_of(preset_model("deepseek-v3")).active == Approx(37e9).margin(0.6e9));
    // gpt-oss model card Table 1 counts active parameters without the input embedding: 3.61B, 5.13B.
    CHECK(counts_of(preset_model("gpt-oss-20b")).active - 201088.0 * 2880 == Approx(3.61e9).margin(0.005e9));
    CHECK(counts_of(preset_model("gpt-oss-120b")).active - 201088.0 * 2880 == Approx(5.13e9).margin(0.005e9));
}

TEST_CASE("training FLOPs and model states follow the exact counts") {
    Scenario s;
    apply_model_preset(s, "deepseek-v3");
    s.parallel.num_gpus = 2048;
    s.parallel.expert = 64;
    s.parallel.pipeline = 16;
    s.training.global_batch_size = 2048;
    Evaluation ev = evaluate(s);
    REQUIRE(ev.ok());
    const auto& p = ev.estimate.parameters;
    CHECK(ev.estimate.compute.flops_per_token == 6.0 * p.active);  // C = 6·P_active per token [TM101]
    // MLA keeps more per token than the GQA-shaped widths of h/a heads would: the latents and the
    // 192-wide query/key heads are in the per-layer activations.
    Scenario gqa = s;
    gqa.model.kv_lora_rank = gqa.model.q_lora_rank = gqa.model.qk_rope_head_dim = 0;
    gqa.model.qk_nope_head_dim = gqa.model.v_head_dim = 0;
    Evaluation ev_gqa = evaluate(gqa);
    REQUIRE(ev_gqa.ok());
    // Fused kernels: Q, K, V (a·192, a·192, a·128), O (a·128) and the latents 2·(1536 + 512) against
    // Q, K, V, O of a·192 each, in 16 bits per token: (192·3 + 128·2)·128·2 + 2·2048·2 − 4·192·128·2.
    const double per_token = (192.0 * 2 + 128 * 2) * 128 * 2 + 2.0 * 2048 * 2 - 4.0 * 192 * 128 * 2;
    const auto& a = ev.estimate.activations.layer;
    const auto& b = ev_gqa.estimate.activations.layer;
    CHECK((a.replicated() + a.tensor_parallel()) - (b.replicated() + b.tensor_parallel()) == per_token);
}

TEST_CASE("validation of the new fields names the field and the rule") {
    Scenario s;
    s.model.q_lora_rank = 64;
    CHECK(has_issue(s, "model.q_lora_rank", "without multi-head latent attention"));
    s = Scenario{};
    s.model.kv_lora_rank = 512;
    CHECK(has_issue(s, "model.qk_rope_head_dim", "must be at least 1"));
    CHECK(has_issue(s, "model.qk_nope_head_dim", "must be at least 1"));
    s.model.qk_rope_head_dim = 64;
    s.model.qk_nope_head_dim = 128;
    CHECK(validate(s).empty());
    s.model.qk_norm = true;
    CHECK(has_issue(s, "model.qk_norm", "must be false with multi-head latent attention"));
    s = Scenario{};
    s.model.global_attention_interval = 6;
    CHECK(has_issue(s, "model.global_attention_interval", "without a sliding window"));
    s.model.sliding_window = -1;
    CHECK(has_issue(s, "model.sliding_window", "must be an integer from 0"));
    s = Scenario{};
    s.model.full_attention_interval = 4;
    CHECK(has_issue(s, "model.linear_num_key_heads", "Gated DeltaNet"));
    CHECK(has_issue(s, "model.linear_value_head_dim", "Gated DeltaNet"));
    s.model.linear_attention = LinearAttention::mamba;
    CHECK(has_issue(s, "model.ssm_state_size", "Mamba"));
    s.model.full_attention_interval = -1;
    CHECK(has_issue(s, "model.full_attention_interval", "must be an integer from 0"));
    s = Scenario{};
    s.model.full_attention_interval = 4;
    s.model.linear_num_key_heads = 16;
    s.model.linear_num_value_heads = 24;
    s.model.linear_key_head_dim = s.model.linear_value_head_dim = 128;
    CHECK(has_issue(s, "model.linear_num_value_heads", "multiple of model.linear_num_key_heads"));
    s.model.linear_num_value_heads = 32;
    CHECK(validate(s).empty());
    s.parallel.tensor = 32;
    s.parallel.num_gpus = 32;
    CHECK(has_issue(s, "parallel.tensor", "must divide model.linear_num_key_heads (16)"));
    s = Scenario{};
    s.model.router_bias = true;
    CHECK(has_issue(s, "model.router_bias", "dense model"));
    s.model.shared_expert_gate = true;
    CHECK(has_issue(s, "model.shared_expert_gate", "without shared experts"));
    // Every new preset is valid as the page applies it.
    for (const char* id : {"qwen3-0.6b", "qwen3-30b-a3b", "qwen3-next-80b-a3b", "deepseek-v3", "gpt-oss-120b",
                           "jamba-v0.1", "gemma-3-27b", "llama-4-maverick", "mistral-small-3.1-24b"}) {
        Scenario p;
        apply_model_preset(p, id);
        INFO(id);
        CHECK(validate(p).empty());
    }
}

TEST_CASE("hostile values of the new fields: a clear error naming the field, never a crash or NaN") {
    const char* paths[] = {"model.kv_lora_rank",         "model.q_lora_rank",          "model.qk_rope_head_dim",
                           "model.qk_nope_head_dim",     "model.v_head_dim",           "model.sliding_window",
                           "model.global_attention_interval", "model.full_attention_interval",
                           "model.linear_num_key_heads", "model.linear_num_value_heads", "model.linear_key_head_dim",
                           "model.linear_value_head_dim", "model.linear_conv_kernel",  "model.ssm_state_size",
                           "model.ssm_expand"};
    for (const char* path : paths) {
        const FieldSpec* f = find_field_by_path(path);
        REQUIRE(f != nullptr);
        for (const char* value : {"-1", "1e30", "4611686018427387904"}) {
            INFO(path << " = " << value);
            auto r = codec::decode_link(std::string("v=2&") + f->url_key + "=" + value);
            bool named = false;
            for (const auto& i : r.issues) named = named || i.field == path;
            CHECK(named);
            CHECK(validate(r.scenario).empty());  // the link's bad value is reset, the rest stays usable
        }
    }
    // The largest values the rules allow still give finite numbers.
    Scenario s;
    apply_model_preset(s, "qwen3-next-80b-a3b");
    s.model.linear_num_key_heads = s.model.linear_num_value_heads = 1'000'000;
    s.model.linear_key_head_dim = s.model.linear_value_head_dim = 10'000'000;
    s.model.linear_conv_kernel = 10'000'000;
    Evaluation ev = evaluate(s);
    REQUIRE(ev.ok());
    CHECK(std::isfinite(ev.estimate.parameters.total));
    CHECK(std::isfinite(ev.estimate.memory_per_gpu_bytes.total));
    CHECK(std::isfinite(ev.estimate.compute.seconds));
}

TEST_CASE("the new fields round-trip through JSON and links") {
    Scenario s;
    apply_model_preset(s, "qwen3-next-80b-a3b");
    s.model.name = "custom hybrid";  // no preset: every field travels in the link
    s.model.linear_conv_kernel = 3;
    s.model.attention_sinks = true;
    s.model.sliding_window = 4096;
    s.model.global_attention_interval = 2;
    Scenario mla;
    apply_model_preset(mla, "deepseek-v3");
    mla.model.name = "custom MLA";
    mla.model.q_lora_rank = 0;
    mla.parallel.expert = 8;
    Scenario mamba = s;
    mamba.model.linear_attention = LinearAttention::mamba;
    mamba.model.ssm_state_size = 16;
    mamba.model.ssm_expand = 3;
    for (const Scenario& x : {s, mla, mamba}) {
        INFO(x.model.name);
        REQUIRE(validate(x).empty());
        auto from_link = codec::decode_link(codec::encode_link(x));
        REQUIRE(from_link.ok());
        CHECK(first_difference(from_link.scenario, x) == nullptr);
        auto from_json = codec::scenario_from_json(codec::scenario_to_json(x));
        REQUIRE(from_json.ok());
        CHECK(first_difference(from_json.scenario, x) == nullptr);
    }
    // The JSON names of the choice.
    CHECK(codec::scenario_to_json(mamba)["model"]["linear_attention"] == "mamba");
    CHECK(codec::scenario_to_json(s)["model"]["linear_attention"] == "gated_deltanet");
}

TEST_CASE("GPU presets of issue 24 carry datasheet memory and bandwidth") {
    struct Expected {
        const char* id;
        double memory_gib, peak_tflops, bandwidth_gbps;
    };
    // nvidia-smi totals in MiB / 1024; dense 16-bit TFLOP/s and GB/s from the datasheets named in presets.cpp.
    const Expected expected[] = {
        {"RTX-6000-Ada", 49140.0 / 1024, 364.2, 960}, {"RTX-PRO-6000", 97887.0 / 1024, 503.8, 1792},
        {"H100-NVL", 95830.0 / 1024, 835.5, 3900},      {"H20", 97871.0 / 1024, 148, 4000},
        {"RTX-3090", 24576.0 / 1024, 71, 936},        {"RTX-4090", 24564.0 / 1024, 165.2, 1008},
        {"L4", 23034.0 / 1024, 121, 300},             {"L40S", 46068.0 / 1024, 362, 864},
        {"A10G", 23028.0 / 1024, 70, 600},            {"H200", 143771.0 / 1024, 989, 4800},
        {"B200", 183359.0 / 1024, 2250, 8000},        {"MI300X", 205822885888.0 / (1 << 30), 1307.4, 5300},
    };
    for (const auto& e : expected) {
        const GpuPreset* g = find_gpu_preset(e.id);
        INFO(e.id);
        REQUIRE(g != nullptr);
        CHECK(g->memory_gib == e.memory_gib);
        CHECK(g->peak_tflops == e.peak_tflops);
        CHECK(g->memory_bandwidth_gbps == e.bandwidth_gbps);
    }
    for (const auto& g : gpu_presets()) {
        INFO(g.id);
        CHECK(g.memory_bandwidth_gbps > 0);
    }
}

TEST_CASE("presets of issue 24 carry their config.json's serving fields") {
    // The fields a KV-cache / serving estimate reads and the parameter count does not pin: positions,
    // window, global-layer interval, routed experts per token, softmax-layer interval; plus the KV
    // shape. Values as each Hugging Face config.json states them (a field it omits: the
    // transformers config class default):
    //   Qwen3 dense/MoE: huggingface.co/Qwen/Qwen3-{0.6B,...,235B-A22B}/blob/main/config.json;
    //   Qwen3-Next: Qwen/Qwen3-Next-80B-A3B-Instruct; DeepSeek: deepseek-ai/DeepSeek-V3, -R1;
    //   gpt-oss: openai/gpt-oss-20b, -120b (layer_types alternate sliding/full, sliding first);
    //   Gemma 3: google/gemma-3-1b-pt, text_config of gemma-3-{4b,12b,27b}-pt (Gemma3TextConfig
    //   defaults: 131,072 positions, vocabulary 262,208, sliding_window_pattern 6);
    //   Mistral: mistralai/Mistral-Small-3.1-24B-Base-2503 text_config; Llama 4: text_config of
    //   meta-llama/Llama-4-{Scout-17B-16E,Maverick-17B-128E}-Instruct (no_rope_layer_interval 4);
    //   Jamba: ai21labs/Jamba-v0.1 (attn_layer_period 8). head_dim where the config has none:
    //   hidden_size / heads (Jamba), qk_nope_head_dim + qk_rope_head_dim = 128 + 64 (DeepSeek MLA).
    struct Expected {
        const char* id;
        std::int64_t positions, window, global_every, kv_heads, head_dim, vocab, experts, per_token, softmax_every;
    };
    const Expected expected[] = {
        {"qwen3-0.6b", 40960, 0, 0, 8, 128, 151936, 1, 1, 0},
        {"qwen3-1.7b", 40960, 0, 0, 8, 128, 151936, 1, 1, 0},
        {"qwen3-4b", 40960, 0, 0, 8, 128, 151936, 1, 1, 0},
        {"qwen3-8b", 40960, 0, 0, 8, 128, 151936, 1, 1, 0},
        {"qwen3-14b", 40960, 0, 0, 8, 128, 151936, 1, 1, 0},
        {"qwen3-32b", 40960, 0, 0, 8, 128, 151936, 1, 1, 0},
        {"qwen3-30b-a3b", 40960, 0, 0, 4, 128, 151936, 128, 8, 0},
        {"qwen3-235b-a22b", 40960, 0, 0, 4, 128, 151936, 128, 8, 0},
        {"qwen3-next-80b-a3b", 262144, 0, 0, 2, 256, 151936, 512, 10, 4},
        {"deepseek-v3", 163840, 0, 0, 128, 192, 129280, 256, 8, 0},
        {"deepseek-r1", 163840, 0, 0, 128, 192, 129280, 256, 8, 0},
        {"gpt-oss-20b", 131072, 128, 2, 8, 64, 201088, 32, 4, 0},
        {"gpt-oss-120b", 131072, 128, 2, 8, 64, 201088, 128, 4, 0},
        {"gemma-3-1b", 32768, 512, 6, 1, 256, 262144, 1, 1, 0},
        {"gemma-3-4b", 131072, 1024, 6, 4, 256, 262208, 1, 1, 0},
        {"gemma-3-12b", 131072, 1024, 6, 8, 256, 262208, 1, 1, 0},
        {"gemma-3-27b", 131072, 1024, 6, 16, 128, 262208, 1, 1, 0},
        {"mistral-small-3.1-24b", 131072, 0, 0, 8, 128, 131072, 1, 1, 0},
        {"llama-4-scout", 10485760, 8192, 4, 8, 128, 202048, 16, 1, 0},
        {"llama-4-maverick", 1048576, 8192, 4, 8, 128, 202048, 128, 1, 0},
        {"jamba-v0.1", 262144, 0, 0, 8, 128, 65536, 16, 2, 8},
    };
    for (const auto& e : expected) {
        INFO(e.id);
        const ModelConfig& m = preset_model(e.id);
        CHECK(m.max_position_embeddings == e.positions);
        CHECK(m.sliding_window == e.window);
        CHECK(m.global_attention_interval == e.global_every);
        CHECK(m.num_kv_heads == e.kv_heads);
        CHECK((m.head_dim > 0 ? m.head_dim : m.hidden_size / m.num_heads) == e.head_dim);
        CHECK(m.vocab_size == e.vocab);
        CHECK(m.num_experts == e.experts);
        CHECK(m.experts_per_token == e.per_token);
        CHECK(m.full_attention_interval == e.softmax_every);
    }
}
