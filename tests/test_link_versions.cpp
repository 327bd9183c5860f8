// Link versions: what a shared link means must never change.
// Version 1 links (vramcalc 0.1.0, and every link without `v`) decode against the defaults and
// preset tables of that release. The expected values below are those tables written out by hand
// (src/core/model/presets.cpp and scenario.hpp at commit 6e793b9, the release v1 links were made
// with; the architectures are the published config.json values cited there). They are data, not
// read from the code under test: a change to today's presets must leave every row here passing.
// Version 2 (current) links round-trip every scenario exactly.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "codec/codec.hpp"
#include "codec/scenario_json.hpp"
#include "core/fields.hpp"
#include "core/model/presets.hpp"

using namespace vramcalc;

namespace {

struct V1Model {
    const char* id;
    const char* name;
    std::int64_t layers, hidden, heads, kv_heads, head_dim, ffn, vocab;
    const char* mlp;
    const char* norm;
    bool bias, qkv_bias, tied;
    const char* positions;
    std::int64_t max_positions, experts, experts_per_token;
};

// id, name, L, h, a, g, d, f, V, mlp, norm, bias, qkv_bias, tied, positions, max positions, E, k
const V1Model v1_models[] = {
    {"gpt2", "GPT-2 124M", 12, 768, 12, 0, 0, 0, 50257, "gelu", "layernorm", true, false, true, "learned", 1024, 1, 1},
    {"gpt2-medium", "GPT-2 355M", 24, 1024, 16, 0, 0, 0, 50257, "gelu", "layernorm", true, false, true, "learned", 1024, 1, 1},
    {"gpt2-large", "GPT-2 774M", 36, 1280, 20, 0, 0, 0, 50257, "gelu", "layernorm", true, false, true, "learned", 1024, 1, 1},
    {"gpt2-xl", "GPT-2 1.5B", 48, 1600, 25, 0, 0, 0, 50257, "gelu", "layernorm", true, false, true, "learned", 1024, 1, 1},
    {"gpt3-125m", "GPT-3 Small 125M", 12, 768, 12, 0, 0, 0, 50257, "gelu", "layernorm", true, false, true, "learned", 2048, 1, 1},
    {"gpt3-350m", "GPT-3 Medium 350M", 24, 1024, 16, 0, 0, 0, 50257, "gelu", "layernorm", true, false, true, "learned", 2048, 1, 1},
    {"gpt3-760m", "GPT-3 Large 760M", 24, 1536, 16, 0, 0, 0, 50257, "gelu", "layernorm", true, false, true, "learned", 2048, 1, 1},
    {"gpt3-2.7b", "GPT-3 2.7B", 32, 2560, 32, 0, 0, 0, 50257, "gelu", "layernorm", true, false, true, "learned", 2048, 1, 1},
    {"gpt3-6.7b", "GPT-3 6.7B", 32, 4096, 32, 0, 0, 0, 50257, "gelu", "layernorm", true, false, true, "learned", 2048, 1, 1},
    {"gpt3-175b", "GPT-3 175B", 96, 12288, 96, 0, 0, 0, 50257, "gelu", "layernorm", true, false, true, "learned", 2048, 1, 1},
    {"gpt-neox-20b", "GPT-NeoX-20B", 44, 6144, 64, 0, 0, 0, 50432, "gelu", "layernorm", true, false, false, "rope", 2048, 1, 1},
    {"pythia-1b", "Pythia-1B", 16, 2048, 8, 0, 0, 0, 50304, "gelu", "layernorm", true, false, false, "rope", 2048, 1, 1},
    {"pythia-1.4b", "Pythia-1.4B", 24, 2048, 16, 0, 0, 0, 50304, "gelu", "layernorm", true, false, false, "rope", 2048, 1, 1},
    {"pythia-2.8b", "Pythia-2.8B", 32, 2560, 32, 0, 0, 0, 50304, "gelu", "layernorm", true, false, false, "rope", 2048, 1, 1},
    {"pythia-6.9b", "Pythia-6.9B", 32, 4096, 32, 0, 0, 0, 50432, "gelu", "layernorm", true, false, false, "rope", 2048, 1, 1},
    {"pythia-12b", "Pythia-12B", 36, 5120, 40, 0, 0, 0, 50688, "gelu", "layernorm", true, false, false, "rope", 2048, 1, 1},
    {"llama-65b", "LLaMA-65B", 80, 8192, 64, 64, 0, 22016, 32000, "swiglu", "rmsnorm", false, false, false, "rope", 2048, 1, 1},
    {"llama-2-7b", "Llama-2-7B", 32, 4096, 32, 32, 0, 11008, 32000, "swiglu", "rmsnorm", false, false, false, "rope", 4096, 1, 1},
    {"llama-2-13b", "Llama-2-13B", 40, 5120, 40, 40, 0, 13824, 32000, "swiglu", "rmsnorm", false, false, false, "rope", 4096, 1, 1},
    {"llama-2-70b", "Llama-2-70B", 80, 8192, 64, 8, 0, 28672, 32000, "swiglu", "rmsnorm", false, false, false, "rope", 4096, 1, 1},
    {"llama-3-8b", "Llama-3-8B", 32, 4096, 32, 8, 0, 14336, 128256, "swiglu", "rmsnorm", false, false, false, "rope", 8192, 1, 1},
    {"llama-3-70b", "Llama-3-70B", 80, 8192, 64, 8, 0, 28672, 128256, "swiglu", "rmsnorm", false, false, false, "rope", 8192, 1, 1},
    {"llama-3.1-405b", "Llama-3.1-405B", 126, 16384, 128, 8, 0, 53248, 128256, "swiglu", "rmsnorm", false, false, false, "rope", 131072, 1, 1},
    {"mistral-7b", "Mistral-7B", 32, 4096, 32, 8, 0, 14336, 32000, "swiglu", "rmsnorm", false, false, false, "rope", 32768, 1, 1},
    {"mixtral-8x7b", "Mixtral-8x7B", 32, 4096, 32, 8, 0, 14336, 32000, "swiglu", "rmsnorm", false, false, false, "rope", 32768, 8, 2},
    {"qwen2.5-7b", "Qwen2.5-7B", 28, 3584, 28, 4, 0, 18944, 152064, "swiglu", "rmsnorm", false, true, false, "rope", 131072, 1, 1},
    {"qwen2.5-72b", "Qwen2.5-72B", 80, 8192, 64, 8, 0, 29568, 152064, "swiglu", "rmsnorm", false, true, false, "rope", 131072, 1, 1},
    {"gemma-2b", "Gemma-2B", 18, 2048, 8, 1, 256, 16384, 256000, "swiglu", "rmsnorm", false, false, true, "rope", 8192, 1, 1},
    {"gemma-7b", "Gemma-7B", 28, 3072, 16, 16, 256, 24576, 256000, "swiglu", "rmsnorm", false, false, true, "rope", 8192, 1, 1},
};

struct V1Gpu {
    const char* id;
    double memory_gib, peak_tflops, achieved_tflops, price_per_gpu_hour;
    // Fields added after v1 (inputs of the predicted throughput model only), frozen with the v1 table.
    std::int64_t gpus_per_node;
    double intra_node_gbps, inter_node_gbps, memory_bandwidth_gbps;
};

const V1Gpu v1_gpus[] = {
    {"V100-16GB", 16, 125, 39, 0.9, 8, 150, 6.25, 900},
    {"V100-32GB", 32, 125, 39, 1, 8, 150, 6.25, 900},
    {"A100-40GB", 40, 312, 150, 1.3, 8, 300, 25, 1555},
    {"A100-80GB", 80, 312, 150, 1.8, 8, 300, 25, 2039},
    {"H100-SXM", 79.6, 989, 400, 3, 8, 450, 50, 3350},
    {"H100-PCIe", 79.6, 756, 302, 2.5, 8, 64, 25, 2000},
    {"H200", 140.4, 989, 400, 3.8, 8, 450, 50, 4800},
    {"B200", 179, 2250, 900, 6, 8, 900, 50, 8000},
    {"L40S", 45, 362, 145, 1, 8, 32, 25, 864},
    {"RTX-3090", 24, 71, 28, 0.3, 4, 32, 1.25, 936},
    {"RTX-4090", 24, 165.2, 66, 0.4, 4, 32, 1.25, 1008},
    {"MI250X", 64, 191.5, 77, 1.5, 8, 50, 12.5, 1600},
    {"MI300X", 192, 1307.4, 523, 3, 8, 448, 50, 5300},
};

// Every field of the v1 defaults, as scenario JSON writes it. A field added later must be added
// here with the value that reproduces what a v1 link meant (the test fails until it is): so a
// change of any of today's defaults cannot change an old link.
const std::pair<const char*, const char*> v1_default_fields[] = {
    {"model.name", "\"GPT-3 6.7B\""}, {"model.layers", "32"}, {"model.hidden_size", "4096"}, {"model.num_heads", "32"},
    {"model.num_kv_heads", "0"}, {"model.head_dim", "0"}, {"model.ffn_hidden_size", "0"}, {"model.vocab_size", "50257"},
    {"model.mlp", "\"gelu\""}, {"model.norm", "\"layernorm\""}, {"model.bias", "true"}, {"model.qkv_bias", "false"},
    {"model.tied_embeddings", "true"}, {"model.position_embedding", "\"learned\""},
    {"model.max_position_embeddings", "2048"}, {"model.num_experts", "1"}, {"model.experts_per_token", "1"},
    {"model.params_override", "0.0"}, {"model.activation", "\"auto\""}, {"model.norms_per_layer", "2"},
    {"model.moe_ffn_hidden_size", "0"}, {"model.num_shared_experts", "0"}, {"model.dense_layers", "0"},
    // Added with issue 24 (attention variants, hybrid layers): off, as every v1 model.
    {"model.kv_lora_rank", "0"}, {"model.q_lora_rank", "0"}, {"model.qk_rope_head_dim", "0"},
    {"model.qk_nope_head_dim", "0"}, {"model.v_head_dim", "0"}, {"model.sliding_window", "0"},
    {"model.global_attention_interval", "0"}, {"model.qk_norm", "false"}, {"model.attention_sinks", "false"},
    {"model.attention_output_gate", "false"}, {"model.full_attention_interval", "0"},
    {"model.linear_attention", "\"gated_deltanet\""}, {"model.linear_num_key_heads", "0"},
    {"model.linear_num_value_heads", "0"}, {"model.linear_key_head_dim", "0"}, {"model.linear_value_head_dim", "0"},
    {"model.linear_conv_kernel", "4"}, {"model.ssm_state_size", "0"}, {"model.ssm_expand", "2"},
    {"model.router_bias", "false"}, {"model.shared_expert_gate", "false"},
    {"training.seq_len", "2048"}, {"training.micro_batch_size", "1"}, {"training.global_batch_size", "1024"},
    {"training.grad_accum_steps", "0"}, {"training.tokens", "300000000000.0"}, {"training.precision", "\"mixed_bf16\""},
    {"training.grad_dtype", "\"match\""}, {"training.optimizer", "\"adamw\""}, {"training.recompute", "\"none\""},
    {"training.flash_attention", "false"}, {"training.dropout", "true"}, {"training.attention_flops", "false"},
    {"training.framework", "\"generic\""}, {"training.kernels", "\"fused\""}, {"training.loss", "\"standard\""},
    {"training.loss_chunks", "8"}, {"training.recompute_layers", "0"}, {"training.optimizer_in_backward", "false"},
    {"training.offload_activations", "false"}, {"training.optimizer_impl", "\"fused\""},
    {"training.paged_optimizer", "false"}, {"training.persistent_gradients", "true"},
    {"training.method", "\"full\""}, {"training.trainable_layers", "0"}, {"training.lora_rank", "8"},
    {"training.lora_targets", "\"q,v\""}, {"training.lora_dropout", "0.0"}, {"training.adapter_dtype", "\"fp32\""},
    {"training.base_weight_format", "\"nf4\""},
    // Added with issue 25 (FP8 linears, context parallelism, HSDP): off, as every v1 run.
    {"training.fp8", "\"none\""}, {"parallel.context", "1"}, {"parallel.shard_group", "0"},
    // Added with issue 25 (Megatron-Core --tp-comm-overlap): off, as Megatron's default and every v1 run.
    {"parallel.tp_comm_overlap", "false"},
    {"parallel.num_gpus", "8"}, {"parallel.tensor", "1"}, {"parallel.pipeline", "1"}, {"parallel.zero_stage", "1"},
    {"parallel.sequence_parallel", "false"}, {"parallel.partition_activations", "false"},
    {"parallel.zero3_live_params", "0.0"}, {"parallel.offload_optimizer", "false"}, {"parallel.expert", "1"},
    {"parallel.offload_params", "false"}, {"parallel.zero_impl", "\"deepspeed\""}, {"parallel.interleave", "1"},
    {"hardware.gpu", "\"A100-80GB\""}, {"hardware.memory_gib", "80.0"}, {"hardware.peak_tflops", "312.0"},
    {"hardware.achieved_tflops", "150.0"}, {"hardware.mfu", "0.0"}, {"hardware.price_per_gpu_hour", "1.8"},
    {"hardware.reserved_gib", "0.0"}, {"hardware.cuda_context_gib", "0.0"}, {"hardware.allocator_overhead", "0.0"},
    {"hardware.throughput_model", "\"fixed\""}, {"hardware.gpus_per_node", "8"}, {"hardware.intra_node_gbps", "300.0"},
    {"hardware.inter_node_gbps", "25.0"}, {"hardware.memory_bandwidth_gbps", "2039.0"},
    // Serving (issue 24), added after v1: every link older than them is a training scenario.
    {"workload", "\"training\""}, {"inference.engine", "\"vllm\""}, {"inference.weight_format", "\"bf16\""},
    {"inference.quant_group_size", "128"}, {"inference.kv_cache_dtype", "\"auto\""}, {"inference.context_len", "8192"},
    {"inference.concurrency", "1"}, {"inference.gpu_memory_utilization", "0.0"}, {"inference.max_batched_tokens", "0"},
    {"inference.gpu_layers", "-1"}, {"inference.prompt_tokens", "1024"}, {"inference.output_tokens", "256"},
    // Added with issue 24's third round: what the code did before (the sampler term had no setting and
    // followed FlashInfer's; the weights came from the format's recipe).
    {"inference.sampler", "\"flashinfer\""}, {"inference.weight_bytes_override", "0.0"},
};

// The scenario's value of a field as scenario JSON writes it ("32", "\"gelu\"", "true").
std::string json_value(const Scenario& s, std::string_view path) {
    nlohmann::json j = codec::scenario_to_json(s);
    std::size_t dot = path.find('.');
    if (dot == std::string_view::npos) return j[std::string(path)].dump();  // "workload"
    return j[std::string(path.substr(0, dot))][std::string(path.substr(dot + 1))].dump();
}

// Version 2 changed two defaults (the memory model's CUDA context and allocator reserve); every
// other default is v1's.
const std::pair<const char*, const char*> v2_changed_defaults[] = {
    {"hardware.cuda_context_gib", "0.5"}, {"hardware.allocator_overhead", "0.05"},
};
// Version 3 changed one more: ZeRO-3 counts DeepSpeed's default stage3_max_live_parameters, 1e9
// (deepspeed/runtime/zero/config.py: max_live_parameters = Field(pp_int(1e9), alias=
// "stage3_max_live_parameters")); v2 counted none.
const std::pair<const char*, const char*> v3_changed_defaults[] = {
    {"parallel.zero3_live_params", "1000000000.0"},
};

// Every field of `s` outside `skip_section` ("model", "hardware" or "") has its default of `version`.
void check_pinned_fields(int version, const Scenario& s, std::string_view skip_section = "",
                         std::initializer_list<std::string_view> skip_fields = {}) {
    for (auto [path, value] : v1_default_fields) {
        std::string_view p = path;
        if (!skip_section.empty() && p.starts_with(std::string(skip_section) + ".")) continue;
        if (std::find(skip_fields.begin(), skip_fields.end(), p) != skip_fields.end()) continue;
        if (version >= 2)
            for (const auto& [changed, v2_value] : v2_changed_defaults)
                if (p == changed) value = v2_value;
        if (version >= 3)
            for (const auto& [changed, v3_value] : v3_changed_defaults)
                if (p == changed) value = v3_value;
        INFO("v" << version << " " << path);
        CHECK(json_value(s, path) == value);
    }
}
void check_v1_pinned_fields(const Scenario& s, std::string_view skip_section = "",
                            std::initializer_list<std::string_view> skip_fields = {}) {
    check_pinned_fields(1, s, skip_section, skip_fields);
}

std::string choice(const char* path, const Scenario& s) {
    const FieldSpec* f = find_field_by_path(path);
    return f->choices[std::size_t(f->get(s))];
}

void check_model(const ModelConfig& m, const V1Model& e) {
    Scenario s;
    s.model = m;
    CHECK(m.name == e.name);
    CHECK(m.layers == e.layers);
    CHECK(m.hidden_size == e.hidden);
    CHECK(m.num_heads == e.heads);
    CHECK(m.num_kv_heads == e.kv_heads);
    CHECK(m.head_dim == e.head_dim);
    CHECK(m.ffn_hidden_size == e.ffn);
    CHECK(m.vocab_size == e.vocab);
    CHECK(choice("model.mlp", s) == e.mlp);
    CHECK(choice("model.norm", s) == e.norm);
    CHECK(m.bias == e.bias);
    CHECK(m.qkv_bias == e.qkv_bias);
    CHECK(m.tied_embeddings == e.tied);
    CHECK(choice("model.position_embedding", s) == e.positions);
    CHECK(m.max_position_embeddings == e.max_positions);
    CHECK(m.num_experts == e.experts);
    CHECK(m.experts_per_token == e.experts_per_token);
    CHECK(m.params_override == 0);
}

// The defaults of version 1: GPT-3 6.7B (Brown et al. 2020, Table 2.1) on 8 × A100-80GB.
void check_v1_defaults_except_model_and_gpu(const Scenario& s, std::int64_t seq_len = 2048) {
    const auto& t = s.training;
    CHECK(t.seq_len == seq_len);
    CHECK(t.micro_batch_size == 1);
    CHECK(t.global_batch_size == 1024);
    CHECK(t.grad_accum_steps == 0);
    CHECK(t.tokens == 300e9);
    CHECK(choice("training.precision", s) == "mixed_bf16");
    CHECK(choice("training.grad_dtype", s) == "match");
    CHECK(choice("training.optimizer", s) == "adamw");
    CHECK(choice("training.recompute", s) == "none");
    CHECK_FALSE(t.flash_attention);
    CHECK(t.dropout);
    CHECK_FALSE(t.attention_flops);
    const auto& p = s.parallel;
    CHECK(p.num_gpus == 8);
    CHECK(p.tensor == 1);
    CHECK(p.pipeline == 1);
    CHECK(p.zero_stage == 1);
    CHECK_FALSE(p.sequence_parallel);
    CHECK_FALSE(p.tp_comm_overlap);
    CHECK_FALSE(p.partition_activations);
    CHECK(p.zero3_live_params == 0);
    CHECK_FALSE(p.offload_optimizer);
    CHECK(p.expert == 1);
    CHECK(s.hardware.mfu == 0);
    CHECK(s.hardware.reserved_gib == 0);
}

bool same_scenario(const Scenario& a, const Scenario& b) {
    const FieldSpec* f = first_difference(a, b);
    if (f) UNSCOPED_INFO("differs: " << f->path);
    return f == nullptr;
}

}  // namespace

TEST_CASE("v1: the defaults, with v=1") {
    for (const char* link : {"v=1", "#v=1", "v=1&theme=dark"}) {
        INFO(link);
        auto r = codec::decode_link(link);
        CHECK(r.ok());
        CHECK(r.notes.empty());
        check_model(r.scenario.model, {"gpt3-6.7b", "GPT-3 6.7B", 32, 4096, 32, 0, 0, 0, 50257, "gelu", "layernorm", true,
                                       false, true, "learned", 2048, 1, 1});
        check_v1_defaults_except_model_and_gpu(r.scenario);
        CHECK(r.scenario.hardware.gpu == "A100-80GB");
        CHECK(r.scenario.hardware.memory_gib == 80);
        CHECK(r.scenario.hardware.peak_tflops == 312);
        CHECK(r.scenario.hardware.achieved_tflops == 150);
        CHECK(r.scenario.hardware.price_per_gpu_hour == 1.8);
    }
}

// Issue 21: the bare page (no fragment) decoded as version 1, so it computed without the CUDA
// context and allocator reserve that `v=2` (now `v=3`), the CLI's defaults and the JS API's defaultScenario()
// count (Llama-3.1-8B on 8 × H100, ZeRO-3, s = 4,500: 78.9 GiB "fits" bare, 83.2 GiB "does not fit"
// as a link). A fragment that names no scenario key is today's defaults; one that names any key
// and no `v` still reads as version 1 (the next test case).
TEST_CASE("the bare page, an empty fragment and view keys alone are today's defaults, as v=3 is") {
    const Scenario today{};
    for (const char* link : {"", "#", "v=3", "#v=3", "theme=dark", "#embed=1&units=gb", "&&", "#embed"}) {
        INFO("'" << link << "'");
        auto r = codec::decode_link(link);
        CHECK(r.ok());
        CHECK(r.notes.empty());
        CHECK(same_scenario(r.scenario, today));
        check_pinned_fields(3, r.scenario);
        // Re-encoded it is the bare current link: no "ctx=0&alloc=0" carried into copied links.
        CHECK(codec::encode_link(r.scenario) == "v=3");
    }
    // Today's defaults (scenario.hpp) are the v2 pins: 0.5 GiB CUDA context, 5 % allocator reserve.
    CHECK(today.hardware.cuda_context_gib == 0.5);
    CHECK(today.hardware.allocator_overhead == 0.05);
    // A fragment of nothing but malformed items is reported, on today's defaults.
    auto malformed = codec::decode_link("%zz");
    CHECK_FALSE(malformed.ok());
    CHECK(same_scenario(malformed.scenario, today));
}

TEST_CASE("v1: a link that names a field and no v is version 1, as every earlier link without v") {
    for (const char* link : {"L=40", "mp=gpt2", "gpu=B200", "b=2&theme=dark", "units=gb&z=3"}) {
        INFO(link);
        auto r = codec::decode_link(link);
        auto v1 = codec::decode_link(std::string("v=1&") + link);
        CHECK(same_scenario(r.scenario, v1.scenario));
        CHECK(r.scenario.hardware.cuda_context_gib == 0);
        CHECK(r.scenario.hardware.allocator_overhead == 0);
    }
}

TEST_CASE("v1: every field of the defaults is pinned, including fields added after v1") {
    for (const auto& f : scenario_fields()) {
        INFO(f.path << ": pin its v1 value in v1_default_fields (and in presets_v1.cpp)");
        CHECK(std::count_if(std::begin(v1_default_fields), std::end(v1_default_fields),
                            [&](const auto& pinned) { return std::string_view(pinned.first) == f.path; }) == 1);
    }
    CHECK(std::size(v1_default_fields) == scenario_fields().size());
    auto r = codec::decode_link("v=1");
    REQUIRE(r.ok());
    check_v1_pinned_fields(r.scenario);
    // A v1 link that names only some fields keeps v1's values for all the others.
    auto edited = codec::decode_link("v=1&L=40&z=3");
    REQUIRE(edited.ok());
    CHECK(edited.scenario.model.layers == 40);
    CHECK(edited.scenario.parallel.zero_stage == 3);
    check_v1_pinned_fields(edited.scenario, "", {"model.layers", "parallel.zero_stage"});
}

TEST_CASE("v1: every model preset id opens the v1 architecture") {
    CHECK(std::size(v1_models) == 29);
    for (const auto& e : v1_models) {
        for (std::string link : {std::string("v=1&mp=") + e.id, std::string("mp=") + e.id}) {  // missing v = v1
            INFO(link);
            auto r = codec::decode_link(link);
            CHECK(r.ok());
            check_model(r.scenario.model, e);
            // GPT-2 has 1,024 learned positions: the default 2,048 tokens are lowered to them, with a note
            // (v1 could not open these links at all: the scenario was invalid).
            bool lowered = e.max_positions < 2048 && std::string(e.positions) == "learned";
            check_v1_defaults_except_model_and_gpu(r.scenario, lowered ? e.max_positions : 2048);
            check_v1_pinned_fields(r.scenario, "model", {"training.seq_len"});
            REQUIRE(r.notes.size() == (lowered ? 1u : 0u));
            if (lowered) {
                CHECK(r.notes[0].field == "training.seq_len");
                CHECK(r.notes[0].message == "lowered from 2048 to 1024: " + std::string(e.name) + " has 1024 learned positions");
            }
            CHECK(r.scenario.hardware.gpu == "A100-80GB");
        }
    }
}

TEST_CASE("v1: every GPU preset id opens the v1 figures") {
    CHECK(std::size(v1_gpus) == 13);
    for (const auto& e : v1_gpus) {
        std::string link = std::string("v=1&gpu=") + e.id;
        INFO(link);
        auto r = codec::decode_link(link);
        CHECK(r.ok());
        const auto& h = r.scenario.hardware;
        CHECK(h.gpu == e.id);
        CHECK(h.memory_gib == e.memory_gib);
        CHECK(h.peak_tflops == e.peak_tflops);
        CHECK(h.achieved_tflops == e.achieved_tflops);
        CHECK(h.price_per_gpu_hour == e.price_per_gpu_hour);
        CHECK(h.mfu == 0);
        CHECK(h.gpus_per_node == e.gpus_per_node);
        CHECK(h.intra_node_gbps == e.intra_node_gbps);
        CHECK(h.inter_node_gbps == e.inter_node_gbps);
        CHECK(h.memory_bandwidth_gbps == e.memory_bandwidth_gbps);
        check_v1_defaults_except_model_and_gpu(r.scenario);
        check_v1_pinned_fields(r.scenario, "hardware", {});
        CHECK(json_value(r.scenario, "hardware.throughput_model") == "\"fixed\"");
    }
}

TEST_CASE("v1: presets, then fields; the link's own seq_len wins; edits of a preset stay edits") {
    auto gpt2 = codec::decode_link("v=1&mp=gpt2&s=512&b=8&gpu=RTX-4090&mem=22");
    REQUIRE(gpt2.ok());
    CHECK(gpt2.notes.empty());
    CHECK(gpt2.scenario.training.seq_len == 512);
    CHECK(gpt2.scenario.training.micro_batch_size == 8);
    CHECK(gpt2.scenario.hardware.memory_gib == 22);
    CHECK(gpt2.scenario.hardware.peak_tflops == 165.2);
    // A v1 link that set more positions keeps the v1 meaning (2,048 tokens with 4,096 positions).
    auto wide = codec::decode_link("v=1&mp=gpt2&maxpos=4096");
    REQUIRE(wide.ok());
    CHECK(wide.notes.empty());
    CHECK(wide.scenario.training.seq_len == 2048);
    CHECK(wide.scenario.model.max_position_embeddings == 4096);
}

// Version 2 is frozen in presets_v2.cpp; it reads today's preset tables (unchanged in v3), pinned
// here, so changing one fails this test (then freeze v2's copy in presets_v2.cpp and make new
// links v=4).
TEST_CASE("v2: every default is pinned") {
    auto r = codec::decode_link("v=2");
    REQUIRE(r.ok());
    check_pinned_fields(2, r.scenario);
}

// Version 3 is today's edition: changing a default fails this test (then freeze it as
// presets_v3.cpp and make new links v=4).
TEST_CASE("v3: every default is pinned") {
    auto r = codec::decode_link("v=3");
    REQUIRE(r.ok());
    check_pinned_fields(3, r.scenario);
    check_pinned_fields(3, Scenario{});
}

TEST_CASE("v2: every model preset is pinned: the v1 architecture, HF's activation and the dropout it trained with") {
    for (const auto& e : v1_models) {
        std::string link = std::string("v=2&mp=") + e.id + "&s=128";
        INFO(link);
        auto r = codec::decode_link(link);
        REQUIRE(r.ok());
        std::string_view id = e.id;
        bool gpt2 = id.starts_with("gpt2"), gpt3 = id.starts_with("gpt3");
        // GPT-2's config.json: activation_function "gelu_new"; GPT-2/3 train with dropout 0.1, the
        // others' configs set every dropout to 0.
        CHECK(json_value(r.scenario, "model.activation") == (gpt2 ? "\"gelu_new\"" : "\"auto\""));
        CHECK(r.scenario.training.dropout == (gpt2 || gpt3));
        ModelConfig m = r.scenario.model;
        m.activation = Activation::auto_;
        check_model(m, e);
        check_pinned_fields(2, r.scenario, "model", {"training.seq_len", "training.dropout"});
    }
}

TEST_CASE("v2: every GPU preset is pinned: v1's figures but the reported memory") {
    for (const auto& e : v1_gpus) {
        std::string link = std::string("v=2&gpu=") + e.id;
        INFO(link);
        auto r = codec::decode_link(link);
        REQUIRE(r.ok());
        const auto& h = r.scenario.hardware;
        CHECK(h.gpu == e.id);
        CHECK(h.peak_tflops == e.peak_tflops);  // memory: "today's GPU presets" below
        CHECK(h.achieved_tflops == e.achieved_tflops);
        CHECK(h.price_per_gpu_hour == e.price_per_gpu_hour);
        CHECK(h.gpus_per_node == e.gpus_per_node);
        CHECK(h.intra_node_gbps == e.intra_node_gbps);
        CHECK(h.inter_node_gbps == e.inter_node_gbps);
        CHECK(h.memory_bandwidth_gbps == e.memory_bandwidth_gbps);
        check_pinned_fields(2, r.scenario, "hardware");
    }
}

// Every preset of version 2 whole, as scenario JSON writes it (a model preset's model section plus
// the dropout it sets; a GPU preset's hardware section): the presets added with fine-tuning and MoE
// too. These rows are pins of the released tables, not references: the architectures are checked
// against their sources in test_parameters.cpp and test_import_hf.cpp, the GPUs above.
// clang-format off
const std::pair<const char*, const char*> v2_model_pins[] = {
    {"gpt2", R"pin({"activation":"gelu_new","bias":true,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":0,"head_dim":0,"hidden_size":768,"layers":12,"max_position_embeddings":1024,"mlp":"gelu","moe_ffn_hidden_size":0,"name":"GPT-2 124M","norm":"layernorm","norms_per_layer":2,"num_experts":1,"num_heads":12,"num_kv_heads":0,"num_shared_experts":0,"params_override":0.0,"position_embedding":"learned","qkv_bias":false,"tied_embeddings":true,"vocab_size":50257,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":true})pin"},
    {"gpt2-medium", R"pin({"activation":"gelu_new","bias":true,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":0,"head_dim":0,"hidden_size":1024,"layers":24,"max_position_embeddings":1024,"mlp":"gelu","moe_ffn_hidden_size":0,"name":"GPT-2 355M","norm":"layernorm","norms_per_layer":2,"num_experts":1,"num_heads":16,"num_kv_heads":0,"num_shared_experts":0,"params_override":0.0,"position_embedding":"learned","qkv_bias":false,"tied_embeddings":true,"vocab_size":50257,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":true})pin"},
    {"gpt2-large", R"pin({"activation":"gelu_new","bias":true,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":0,"head_dim":0,"hidden_size":1280,"layers":36,"max_position_embeddings":1024,"mlp":"gelu","moe_ffn_hidden_size":0,"name":"GPT-2 774M","norm":"layernorm","norms_per_layer":2,"num_experts":1,"num_heads":20,"num_kv_heads":0,"num_shared_experts":0,"params_override":0.0,"position_embedding":"learned","qkv_bias":false,"tied_embeddings":true,"vocab_size":50257,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":true})pin"},
    {"gpt2-xl", R"pin({"activation":"gelu_new","bias":true,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":0,"head_dim":0,"hidden_size":1600,"layers":48,"max_position_embeddings":1024,"mlp":"gelu","moe_ffn_hidden_size":0,"name":"GPT-2 1.5B","norm":"layernorm","norms_per_layer":2,"num_experts":1,"num_heads":25,"num_kv_heads":0,"num_shared_experts":0,"params_override":0.0,"position_embedding":"learned","qkv_bias":false,"tied_embeddings":true,"vocab_size":50257,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":true})pin"},
    {"gpt3-125m", R"pin({"activation":"auto","bias":true,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":0,"head_dim":0,"hidden_size":768,"layers":12,"max_position_embeddings":2048,"mlp":"gelu","moe_ffn_hidden_size":0,"name":"GPT-3 Small 125M","norm":"layernorm","norms_per_layer":2,"num_experts":1,"num_heads":12,"num_kv_heads":0,"num_shared_experts":0,"params_override":0.0,"position_embedding":"learned","qkv_bias":false,"tied_embeddings":true,"vocab_size":50257,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":true})pin"},
    {"gpt3-350m", R"pin({"activation":"auto","bias":true,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":0,"head_dim":0,"hidden_size":1024,"layers":24,"max_position_embeddings":2048,"mlp":"gelu","moe_ffn_hidden_size":0,"name":"GPT-3 Medium 350M","norm":"layernorm","norms_per_layer":2,"num_experts":1,"num_heads":16,"num_kv_heads":0,"num_shared_experts":0,"params_override":0.0,"position_embedding":"learned","qkv_bias":false,"tied_embeddings":true,"vocab_size":50257,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":true})pin"},
    {"gpt3-760m", R"pin({"activation":"auto","bias":true,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":0,"head_dim":0,"hidden_size":1536,"layers":24,"max_position_embeddings":2048,"mlp":"gelu","moe_ffn_hidden_size":0,"name":"GPT-3 Large 760M","norm":"layernorm","norms_per_layer":2,"num_experts":1,"num_heads":16,"num_kv_heads":0,"num_shared_experts":0,"params_override":0.0,"position_embedding":"learned","qkv_bias":false,"tied_embeddings":true,"vocab_size":50257,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":true})pin"},
    {"gpt3-2.7b", R"pin({"activation":"auto","bias":true,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":0,"head_dim":0,"hidden_size":2560,"layers":32,"max_position_embeddings":2048,"mlp":"gelu","moe_ffn_hidden_size":0,"name":"GPT-3 2.7B","norm":"layernorm","norms_per_layer":2,"num_experts":1,"num_heads":32,"num_kv_heads":0,"num_shared_experts":0,"params_override":0.0,"position_embedding":"learned","qkv_bias":false,"tied_embeddings":true,"vocab_size":50257,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":true})pin"},
    {"gpt3-6.7b", R"pin({"activation":"auto","bias":true,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":0,"head_dim":0,"hidden_size":4096,"layers":32,"max_position_embeddings":2048,"mlp":"gelu","moe_ffn_hidden_size":0,"name":"GPT-3 6.7B","norm":"layernorm","norms_per_layer":2,"num_experts":1,"num_heads":32,"num_kv_heads":0,"num_shared_experts":0,"params_override":0.0,"position_embedding":"learned","qkv_bias":false,"tied_embeddings":true,"vocab_size":50257,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":true})pin"},
    {"gpt3-175b", R"pin({"activation":"auto","bias":true,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":0,"head_dim":0,"hidden_size":12288,"layers":96,"max_position_embeddings":2048,"mlp":"gelu","moe_ffn_hidden_size":0,"name":"GPT-3 175B","norm":"layernorm","norms_per_layer":2,"num_experts":1,"num_heads":96,"num_kv_heads":0,"num_shared_experts":0,"params_override":0.0,"position_embedding":"learned","qkv_bias":false,"tied_embeddings":true,"vocab_size":50257,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":true})pin"},
    {"gpt-neox-20b", R"pin({"activation":"auto","bias":true,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":0,"head_dim":0,"hidden_size":6144,"layers":44,"max_position_embeddings":2048,"mlp":"gelu","moe_ffn_hidden_size":0,"name":"GPT-NeoX-20B","norm":"layernorm","norms_per_layer":2,"num_experts":1,"num_heads":64,"num_kv_heads":0,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":false,"vocab_size":50432,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"pythia-1b", R"pin({"activation":"auto","bias":true,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":0,"head_dim":0,"hidden_size":2048,"layers":16,"max_position_embeddings":2048,"mlp":"gelu","moe_ffn_hidden_size":0,"name":"Pythia-1B","norm":"layernorm","norms_per_layer":2,"num_experts":1,"num_heads":8,"num_kv_heads":0,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":false,"vocab_size":50304,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"pythia-1.4b", R"pin({"activation":"auto","bias":true,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":0,"head_dim":0,"hidden_size":2048,"layers":24,"max_position_embeddings":2048,"mlp":"gelu","moe_ffn_hidden_size":0,"name":"Pythia-1.4B","norm":"layernorm","norms_per_layer":2,"num_experts":1,"num_heads":16,"num_kv_heads":0,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":false,"vocab_size":50304,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"pythia-2.8b", R"pin({"activation":"auto","bias":true,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":0,"head_dim":0,"hidden_size":2560,"layers":32,"max_position_embeddings":2048,"mlp":"gelu","moe_ffn_hidden_size":0,"name":"Pythia-2.8B","norm":"layernorm","norms_per_layer":2,"num_experts":1,"num_heads":32,"num_kv_heads":0,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":false,"vocab_size":50304,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"pythia-6.9b", R"pin({"activation":"auto","bias":true,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":0,"head_dim":0,"hidden_size":4096,"layers":32,"max_position_embeddings":2048,"mlp":"gelu","moe_ffn_hidden_size":0,"name":"Pythia-6.9B","norm":"layernorm","norms_per_layer":2,"num_experts":1,"num_heads":32,"num_kv_heads":0,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":false,"vocab_size":50432,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"pythia-12b", R"pin({"activation":"auto","bias":true,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":0,"head_dim":0,"hidden_size":5120,"layers":36,"max_position_embeddings":2048,"mlp":"gelu","moe_ffn_hidden_size":0,"name":"Pythia-12B","norm":"layernorm","norms_per_layer":2,"num_experts":1,"num_heads":40,"num_kv_heads":0,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":false,"vocab_size":50688,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"llama-65b", R"pin({"activation":"auto","bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":22016,"head_dim":0,"hidden_size":8192,"layers":80,"max_position_embeddings":2048,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"LLaMA-65B","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":64,"num_kv_heads":64,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":false,"vocab_size":32000,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"llama-2-7b", R"pin({"activation":"auto","bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":11008,"head_dim":0,"hidden_size":4096,"layers":32,"max_position_embeddings":4096,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Llama-2-7B","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":32,"num_kv_heads":32,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":false,"vocab_size":32000,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"llama-2-13b", R"pin({"activation":"auto","bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":13824,"head_dim":0,"hidden_size":5120,"layers":40,"max_position_embeddings":4096,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Llama-2-13B","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":40,"num_kv_heads":40,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":false,"vocab_size":32000,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"llama-2-70b", R"pin({"activation":"auto","bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":28672,"head_dim":0,"hidden_size":8192,"layers":80,"max_position_embeddings":4096,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Llama-2-70B","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":64,"num_kv_heads":8,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":false,"vocab_size":32000,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"llama-3-8b", R"pin({"activation":"auto","bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":14336,"head_dim":0,"hidden_size":4096,"layers":32,"max_position_embeddings":8192,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Llama-3-8B","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":32,"num_kv_heads":8,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":false,"vocab_size":128256,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"llama-3-70b", R"pin({"activation":"auto","bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":28672,"head_dim":0,"hidden_size":8192,"layers":80,"max_position_embeddings":8192,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Llama-3-70B","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":64,"num_kv_heads":8,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":false,"vocab_size":128256,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"llama-3.1-405b", R"pin({"activation":"auto","bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":53248,"head_dim":0,"hidden_size":16384,"layers":126,"max_position_embeddings":131072,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Llama-3.1-405B","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":128,"num_kv_heads":8,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":false,"vocab_size":128256,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"mistral-7b", R"pin({"activation":"auto","bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":14336,"head_dim":0,"hidden_size":4096,"layers":32,"max_position_embeddings":32768,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Mistral-7B","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":32,"num_kv_heads":8,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":false,"vocab_size":32000,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"mixtral-8x7b", R"pin({"activation":"auto","bias":false,"dense_layers":0,"experts_per_token":2,"ffn_hidden_size":14336,"head_dim":0,"hidden_size":4096,"layers":32,"max_position_embeddings":32768,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Mixtral-8x7B","norm":"rmsnorm","norms_per_layer":2,"num_experts":8,"num_heads":32,"num_kv_heads":8,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":false,"vocab_size":32000,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"qwen2.5-7b", R"pin({"activation":"auto","bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":18944,"head_dim":0,"hidden_size":3584,"layers":28,"max_position_embeddings":131072,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Qwen2.5-7B","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":28,"num_kv_heads":4,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":true,"tied_embeddings":false,"vocab_size":152064,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"qwen2.5-72b", R"pin({"activation":"auto","bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":29568,"head_dim":0,"hidden_size":8192,"layers":80,"max_position_embeddings":131072,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Qwen2.5-72B","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":64,"num_kv_heads":8,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":true,"tied_embeddings":false,"vocab_size":152064,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"gemma-2b", R"pin({"activation":"auto","bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":16384,"head_dim":256,"hidden_size":2048,"layers":18,"max_position_embeddings":8192,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Gemma-2B","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":8,"num_kv_heads":1,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":true,"vocab_size":256000,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"gemma-7b", R"pin({"activation":"auto","bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":24576,"head_dim":256,"hidden_size":3072,"layers":28,"max_position_embeddings":8192,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Gemma-7B","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":16,"num_kv_heads":16,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":true,"vocab_size":256000,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"llama-3.1-8b", R"pin({"activation":"auto","bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":14336,"head_dim":0,"hidden_size":4096,"layers":32,"max_position_embeddings":131072,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Llama-3.1-8B","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":32,"num_kv_heads":8,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":false,"vocab_size":128256,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"llama-3.1-70b", R"pin({"activation":"auto","bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":28672,"head_dim":0,"hidden_size":8192,"layers":80,"max_position_embeddings":131072,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Llama-3.1-70B","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":64,"num_kv_heads":8,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":false,"vocab_size":128256,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"llama-3.2-1b", R"pin({"activation":"auto","bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":8192,"head_dim":0,"hidden_size":2048,"layers":16,"max_position_embeddings":131072,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Llama-3.2-1B","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":32,"num_kv_heads":8,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":true,"vocab_size":128256,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"llama-3.2-3b", R"pin({"activation":"auto","bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":8192,"head_dim":0,"hidden_size":3072,"layers":28,"max_position_embeddings":131072,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Llama-3.2-3B","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":24,"num_kv_heads":8,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":true,"vocab_size":128256,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"llama-3.3-70b", R"pin({"activation":"auto","bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":28672,"head_dim":0,"hidden_size":8192,"layers":80,"max_position_embeddings":131072,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Llama-3.3-70B","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":64,"num_kv_heads":8,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":false,"vocab_size":128256,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"qwen2.5-0.5b", R"pin({"activation":"auto","bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":4864,"head_dim":0,"hidden_size":896,"layers":24,"max_position_embeddings":32768,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Qwen2.5-0.5B","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":14,"num_kv_heads":2,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":true,"tied_embeddings":true,"vocab_size":151936,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"qwen2.5-1.5b", R"pin({"activation":"auto","bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":8960,"head_dim":0,"hidden_size":1536,"layers":28,"max_position_embeddings":131072,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Qwen2.5-1.5B","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":12,"num_kv_heads":2,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":true,"tied_embeddings":true,"vocab_size":151936,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"qwen2.5-3b", R"pin({"activation":"auto","bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":11008,"head_dim":0,"hidden_size":2048,"layers":36,"max_position_embeddings":32768,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Qwen2.5-3B","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":16,"num_kv_heads":2,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":true,"tied_embeddings":true,"vocab_size":151936,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"qwen2.5-14b", R"pin({"activation":"auto","bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":13824,"head_dim":0,"hidden_size":5120,"layers":48,"max_position_embeddings":131072,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Qwen2.5-14B","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":40,"num_kv_heads":8,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":true,"tied_embeddings":false,"vocab_size":152064,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"qwen2.5-32b", R"pin({"activation":"auto","bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":27648,"head_dim":0,"hidden_size":5120,"layers":64,"max_position_embeddings":131072,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Qwen2.5-32B","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":40,"num_kv_heads":8,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":true,"tied_embeddings":false,"vocab_size":152064,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"gemma-2-2b", R"pin({"activation":"auto","bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":9216,"head_dim":256,"hidden_size":2304,"layers":26,"max_position_embeddings":8192,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Gemma-2-2B","norm":"rmsnorm","norms_per_layer":4,"num_experts":1,"num_heads":8,"num_kv_heads":4,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":true,"vocab_size":256000,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"gemma-2-9b", R"pin({"activation":"auto","bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":14336,"head_dim":256,"hidden_size":3584,"layers":42,"max_position_embeddings":8192,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Gemma-2-9B","norm":"rmsnorm","norms_per_layer":4,"num_experts":1,"num_heads":16,"num_kv_heads":8,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":true,"vocab_size":256000,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"gemma-2-27b", R"pin({"activation":"auto","bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":36864,"head_dim":128,"hidden_size":4608,"layers":46,"max_position_embeddings":8192,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Gemma-2-27B","norm":"rmsnorm","norms_per_layer":4,"num_experts":1,"num_heads":32,"num_kv_heads":16,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":true,"vocab_size":256000,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"phi-3-mini-4k", R"pin({"activation":"auto","bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":8192,"head_dim":0,"hidden_size":3072,"layers":32,"max_position_embeddings":4096,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Phi-3-mini-4k","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":32,"num_kv_heads":32,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":false,"vocab_size":32064,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"phi-3.5-mini", R"pin({"activation":"auto","bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":8192,"head_dim":0,"hidden_size":3072,"layers":32,"max_position_embeddings":131072,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Phi-3.5-mini","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":32,"num_kv_heads":32,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":false,"vocab_size":32064,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"phi-3-small-8k", R"pin({"activation":"auto","bias":true,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":14336,"head_dim":0,"hidden_size":4096,"layers":32,"max_position_embeddings":8192,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Phi-3-small-8k","norm":"layernorm","norms_per_layer":2,"num_experts":1,"num_heads":32,"num_kv_heads":8,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":true,"vocab_size":100352,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"phi-3-medium-4k", R"pin({"activation":"auto","bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":17920,"head_dim":0,"hidden_size":5120,"layers":40,"max_position_embeddings":4096,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Phi-3-medium-4k","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":40,"num_kv_heads":10,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":false,"vocab_size":32064,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"phi-4", R"pin({"activation":"auto","bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":17920,"head_dim":0,"hidden_size":5120,"layers":40,"max_position_embeddings":16384,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Phi-4","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":40,"num_kv_heads":10,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":false,"vocab_size":100352,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"mistral-nemo-12b", R"pin({"activation":"auto","bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":14336,"head_dim":128,"hidden_size":5120,"layers":40,"max_position_embeddings":1024000,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Mistral-Nemo-12B","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":32,"num_kv_heads":8,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":false,"vocab_size":131072,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"deepseek-moe-16b", R"pin({"activation":"auto","bias":false,"dense_layers":1,"experts_per_token":6,"ffn_hidden_size":10944,"head_dim":0,"hidden_size":2048,"layers":28,"max_position_embeddings":4096,"mlp":"swiglu","moe_ffn_hidden_size":1408,"name":"DeepSeekMoE-16B","norm":"rmsnorm","norms_per_layer":2,"num_experts":64,"num_heads":16,"num_kv_heads":16,"num_shared_experts":2,"params_override":0.0,"position_embedding":"rope","qkv_bias":false,"tied_embeddings":false,"vocab_size":102400,"kv_lora_rank":0,"q_lora_rank":0,"qk_rope_head_dim":0,"qk_nope_head_dim":0,"v_head_dim":0,"sliding_window":0,"global_attention_interval":0,"qk_norm":false,"attention_sinks":false,"attention_output_gate":false,"full_attention_interval":0,"linear_attention":"gated_deltanet","linear_num_key_heads":0,"linear_num_value_heads":0,"linear_key_head_dim":0,"linear_value_head_dim":0,"linear_conv_kernel":4,"ssm_state_size":0,"ssm_expand":2,"router_bias":false,"shared_expert_gate":false,"(training.dropout)":false})pin"},
    {"qwen3-0.6b", R"pin({"activation":"auto","attention_output_gate":false,"attention_sinks":false,"bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":3072,"full_attention_interval":0,"global_attention_interval":0,"head_dim":128,"hidden_size":1024,"kv_lora_rank":0,"layers":28,"linear_attention":"gated_deltanet","linear_conv_kernel":4,"linear_key_head_dim":0,"linear_num_key_heads":0,"linear_num_value_heads":0,"linear_value_head_dim":0,"max_position_embeddings":40960,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Qwen3-0.6B","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":16,"num_kv_heads":8,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","q_lora_rank":0,"qk_nope_head_dim":0,"qk_norm":true,"qk_rope_head_dim":0,"qkv_bias":false,"router_bias":false,"shared_expert_gate":false,"sliding_window":0,"ssm_expand":2,"ssm_state_size":0,"tied_embeddings":true,"v_head_dim":0,"vocab_size":151936,"(training.dropout)":false})pin"},
    {"qwen3-1.7b", R"pin({"activation":"auto","attention_output_gate":false,"attention_sinks":false,"bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":6144,"full_attention_interval":0,"global_attention_interval":0,"head_dim":128,"hidden_size":2048,"kv_lora_rank":0,"layers":28,"linear_attention":"gated_deltanet","linear_conv_kernel":4,"linear_key_head_dim":0,"linear_num_key_heads":0,"linear_num_value_heads":0,"linear_value_head_dim":0,"max_position_embeddings":40960,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Qwen3-1.7B","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":16,"num_kv_heads":8,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","q_lora_rank":0,"qk_nope_head_dim":0,"qk_norm":true,"qk_rope_head_dim":0,"qkv_bias":false,"router_bias":false,"shared_expert_gate":false,"sliding_window":0,"ssm_expand":2,"ssm_state_size":0,"tied_embeddings":true,"v_head_dim":0,"vocab_size":151936,"(training.dropout)":false})pin"},
    {"qwen3-4b", R"pin({"activation":"auto","attention_output_gate":false,"attention_sinks":false,"bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":9728,"full_attention_interval":0,"global_attention_interval":0,"head_dim":128,"hidden_size":2560,"kv_lora_rank":0,"layers":36,"linear_attention":"gated_deltanet","linear_conv_kernel":4,"linear_key_head_dim":0,"linear_num_key_heads":0,"linear_num_value_heads":0,"linear_value_head_dim":0,"max_position_embeddings":40960,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Qwen3-4B","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":32,"num_kv_heads":8,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","q_lora_rank":0,"qk_nope_head_dim":0,"qk_norm":true,"qk_rope_head_dim":0,"qkv_bias":false,"router_bias":false,"shared_expert_gate":false,"sliding_window":0,"ssm_expand":2,"ssm_state_size":0,"tied_embeddings":true,"v_head_dim":0,"vocab_size":151936,"(training.dropout)":false})pin"},
    {"qwen3-8b", R"pin({"activation":"auto","attention_output_gate":false,"attention_sinks":false,"bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":12288,"full_attention_interval":0,"global_attention_interval":0,"head_dim":128,"hidden_size":4096,"kv_lora_rank":0,"layers":36,"linear_attention":"gated_deltanet","linear_conv_kernel":4,"linear_key_head_dim":0,"linear_num_key_heads":0,"linear_num_value_heads":0,"linear_value_head_dim":0,"max_position_embeddings":40960,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Qwen3-8B","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":32,"num_kv_heads":8,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","q_lora_rank":0,"qk_nope_head_dim":0,"qk_norm":true,"qk_rope_head_dim":0,"qkv_bias":false,"router_bias":false,"shared_expert_gate":false,"sliding_window":0,"ssm_expand":2,"ssm_state_size":0,"tied_embeddings":false,"v_head_dim":0,"vocab_size":151936,"(training.dropout)":false})pin"},
    {"qwen3-14b", R"pin({"activation":"auto","attention_output_gate":false,"attention_sinks":false,"bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":17408,"full_attention_interval":0,"global_attention_interval":0,"head_dim":128,"hidden_size":5120,"kv_lora_rank":0,"layers":40,"linear_attention":"gated_deltanet","linear_conv_kernel":4,"linear_key_head_dim":0,"linear_num_key_heads":0,"linear_num_value_heads":0,"linear_value_head_dim":0,"max_position_embeddings":40960,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Qwen3-14B","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":40,"num_kv_heads":8,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","q_lora_rank":0,"qk_nope_head_dim":0,"qk_norm":true,"qk_rope_head_dim":0,"qkv_bias":false,"router_bias":false,"shared_expert_gate":false,"sliding_window":0,"ssm_expand":2,"ssm_state_size":0,"tied_embeddings":false,"v_head_dim":0,"vocab_size":151936,"(training.dropout)":false})pin"},
    {"qwen3-32b", R"pin({"activation":"auto","attention_output_gate":false,"attention_sinks":false,"bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":25600,"full_attention_interval":0,"global_attention_interval":0,"head_dim":128,"hidden_size":5120,"kv_lora_rank":0,"layers":64,"linear_attention":"gated_deltanet","linear_conv_kernel":4,"linear_key_head_dim":0,"linear_num_key_heads":0,"linear_num_value_heads":0,"linear_value_head_dim":0,"max_position_embeddings":40960,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Qwen3-32B","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":64,"num_kv_heads":8,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","q_lora_rank":0,"qk_nope_head_dim":0,"qk_norm":true,"qk_rope_head_dim":0,"qkv_bias":false,"router_bias":false,"shared_expert_gate":false,"sliding_window":0,"ssm_expand":2,"ssm_state_size":0,"tied_embeddings":false,"v_head_dim":0,"vocab_size":151936,"(training.dropout)":false})pin"},
    {"qwen3-30b-a3b", R"pin({"activation":"auto","attention_output_gate":false,"attention_sinks":false,"bias":false,"dense_layers":0,"experts_per_token":8,"ffn_hidden_size":6144,"full_attention_interval":0,"global_attention_interval":0,"head_dim":128,"hidden_size":2048,"kv_lora_rank":0,"layers":48,"linear_attention":"gated_deltanet","linear_conv_kernel":4,"linear_key_head_dim":0,"linear_num_key_heads":0,"linear_num_value_heads":0,"linear_value_head_dim":0,"max_position_embeddings":40960,"mlp":"swiglu","moe_ffn_hidden_size":768,"name":"Qwen3-30B-A3B","norm":"rmsnorm","norms_per_layer":2,"num_experts":128,"num_heads":32,"num_kv_heads":4,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","q_lora_rank":0,"qk_nope_head_dim":0,"qk_norm":true,"qk_rope_head_dim":0,"qkv_bias":false,"router_bias":false,"shared_expert_gate":false,"sliding_window":0,"ssm_expand":2,"ssm_state_size":0,"tied_embeddings":false,"v_head_dim":0,"vocab_size":151936,"(training.dropout)":false})pin"},
    {"qwen3-235b-a22b", R"pin({"activation":"auto","attention_output_gate":false,"attention_sinks":false,"bias":false,"dense_layers":0,"experts_per_token":8,"ffn_hidden_size":12288,"full_attention_interval":0,"global_attention_interval":0,"head_dim":128,"hidden_size":4096,"kv_lora_rank":0,"layers":94,"linear_attention":"gated_deltanet","linear_conv_kernel":4,"linear_key_head_dim":0,"linear_num_key_heads":0,"linear_num_value_heads":0,"linear_value_head_dim":0,"max_position_embeddings":40960,"mlp":"swiglu","moe_ffn_hidden_size":1536,"name":"Qwen3-235B-A22B","norm":"rmsnorm","norms_per_layer":2,"num_experts":128,"num_heads":64,"num_kv_heads":4,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","q_lora_rank":0,"qk_nope_head_dim":0,"qk_norm":true,"qk_rope_head_dim":0,"qkv_bias":false,"router_bias":false,"shared_expert_gate":false,"sliding_window":0,"ssm_expand":2,"ssm_state_size":0,"tied_embeddings":false,"v_head_dim":0,"vocab_size":151936,"(training.dropout)":false})pin"},
    {"qwen3-next-80b-a3b", R"pin({"activation":"auto","attention_output_gate":true,"attention_sinks":false,"bias":false,"dense_layers":0,"experts_per_token":10,"ffn_hidden_size":5120,"full_attention_interval":4,"global_attention_interval":0,"head_dim":256,"hidden_size":2048,"kv_lora_rank":0,"layers":48,"linear_attention":"gated_deltanet","linear_conv_kernel":4,"linear_key_head_dim":128,"linear_num_key_heads":16,"linear_num_value_heads":32,"linear_value_head_dim":128,"max_position_embeddings":262144,"mlp":"swiglu","moe_ffn_hidden_size":512,"name":"Qwen3-Next-80B-A3B","norm":"rmsnorm","norms_per_layer":2,"num_experts":512,"num_heads":16,"num_kv_heads":2,"num_shared_experts":1,"params_override":0.0,"position_embedding":"rope","q_lora_rank":0,"qk_nope_head_dim":0,"qk_norm":true,"qk_rope_head_dim":0,"qkv_bias":false,"router_bias":false,"shared_expert_gate":true,"sliding_window":0,"ssm_expand":2,"ssm_state_size":0,"tied_embeddings":false,"v_head_dim":0,"vocab_size":151936,"(training.dropout)":false})pin"},
    {"deepseek-v3", R"pin({"activation":"auto","attention_output_gate":false,"attention_sinks":false,"bias":false,"dense_layers":3,"experts_per_token":8,"ffn_hidden_size":18432,"full_attention_interval":0,"global_attention_interval":0,"head_dim":192,"hidden_size":7168,"kv_lora_rank":512,"layers":61,"linear_attention":"gated_deltanet","linear_conv_kernel":4,"linear_key_head_dim":0,"linear_num_key_heads":0,"linear_num_value_heads":0,"linear_value_head_dim":0,"max_position_embeddings":163840,"mlp":"swiglu","moe_ffn_hidden_size":2048,"name":"DeepSeek-V3","norm":"rmsnorm","norms_per_layer":2,"num_experts":256,"num_heads":128,"num_kv_heads":128,"num_shared_experts":1,"params_override":0.0,"position_embedding":"rope","q_lora_rank":1536,"qk_nope_head_dim":128,"qk_norm":false,"qk_rope_head_dim":64,"qkv_bias":false,"router_bias":true,"shared_expert_gate":false,"sliding_window":0,"ssm_expand":2,"ssm_state_size":0,"tied_embeddings":false,"v_head_dim":128,"vocab_size":129280,"(training.dropout)":false})pin"},
    {"deepseek-r1", R"pin({"activation":"auto","attention_output_gate":false,"attention_sinks":false,"bias":false,"dense_layers":3,"experts_per_token":8,"ffn_hidden_size":18432,"full_attention_interval":0,"global_attention_interval":0,"head_dim":192,"hidden_size":7168,"kv_lora_rank":512,"layers":61,"linear_attention":"gated_deltanet","linear_conv_kernel":4,"linear_key_head_dim":0,"linear_num_key_heads":0,"linear_num_value_heads":0,"linear_value_head_dim":0,"max_position_embeddings":163840,"mlp":"swiglu","moe_ffn_hidden_size":2048,"name":"DeepSeek-R1","norm":"rmsnorm","norms_per_layer":2,"num_experts":256,"num_heads":128,"num_kv_heads":128,"num_shared_experts":1,"params_override":0.0,"position_embedding":"rope","q_lora_rank":1536,"qk_nope_head_dim":128,"qk_norm":false,"qk_rope_head_dim":64,"qkv_bias":false,"router_bias":true,"shared_expert_gate":false,"sliding_window":0,"ssm_expand":2,"ssm_state_size":0,"tied_embeddings":false,"v_head_dim":128,"vocab_size":129280,"(training.dropout)":false})pin"},
    {"gpt-oss-20b", R"pin({"activation":"auto","attention_output_gate":false,"attention_sinks":true,"bias":true,"dense_layers":0,"experts_per_token":4,"ffn_hidden_size":2880,"full_attention_interval":0,"global_attention_interval":2,"head_dim":64,"hidden_size":2880,"kv_lora_rank":0,"layers":24,"linear_attention":"gated_deltanet","linear_conv_kernel":4,"linear_key_head_dim":0,"linear_num_key_heads":0,"linear_num_value_heads":0,"linear_value_head_dim":0,"max_position_embeddings":131072,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"gpt-oss-20b","norm":"rmsnorm","norms_per_layer":2,"num_experts":32,"num_heads":64,"num_kv_heads":8,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","q_lora_rank":0,"qk_nope_head_dim":0,"qk_norm":false,"qk_rope_head_dim":0,"qkv_bias":false,"router_bias":true,"shared_expert_gate":false,"sliding_window":128,"ssm_expand":2,"ssm_state_size":0,"tied_embeddings":false,"v_head_dim":0,"vocab_size":201088,"(training.dropout)":false})pin"},
    {"gpt-oss-120b", R"pin({"activation":"auto","attention_output_gate":false,"attention_sinks":true,"bias":true,"dense_layers":0,"experts_per_token":4,"ffn_hidden_size":2880,"full_attention_interval":0,"global_attention_interval":2,"head_dim":64,"hidden_size":2880,"kv_lora_rank":0,"layers":36,"linear_attention":"gated_deltanet","linear_conv_kernel":4,"linear_key_head_dim":0,"linear_num_key_heads":0,"linear_num_value_heads":0,"linear_value_head_dim":0,"max_position_embeddings":131072,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"gpt-oss-120b","norm":"rmsnorm","norms_per_layer":2,"num_experts":128,"num_heads":64,"num_kv_heads":8,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","q_lora_rank":0,"qk_nope_head_dim":0,"qk_norm":false,"qk_rope_head_dim":0,"qkv_bias":false,"router_bias":true,"shared_expert_gate":false,"sliding_window":128,"ssm_expand":2,"ssm_state_size":0,"tied_embeddings":false,"v_head_dim":0,"vocab_size":201088,"(training.dropout)":false})pin"},
    {"gemma-3-1b", R"pin({"activation":"auto","attention_output_gate":false,"attention_sinks":false,"bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":6912,"full_attention_interval":0,"global_attention_interval":6,"head_dim":256,"hidden_size":1152,"kv_lora_rank":0,"layers":26,"linear_attention":"gated_deltanet","linear_conv_kernel":4,"linear_key_head_dim":0,"linear_num_key_heads":0,"linear_num_value_heads":0,"linear_value_head_dim":0,"max_position_embeddings":32768,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Gemma-3-1B","norm":"rmsnorm","norms_per_layer":4,"num_experts":1,"num_heads":4,"num_kv_heads":1,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","q_lora_rank":0,"qk_nope_head_dim":0,"qk_norm":true,"qk_rope_head_dim":0,"qkv_bias":false,"router_bias":false,"shared_expert_gate":false,"sliding_window":512,"ssm_expand":2,"ssm_state_size":0,"tied_embeddings":true,"v_head_dim":0,"vocab_size":262144,"(training.dropout)":false})pin"},
    {"gemma-3-4b", R"pin({"activation":"auto","attention_output_gate":false,"attention_sinks":false,"bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":10240,"full_attention_interval":0,"global_attention_interval":6,"head_dim":256,"hidden_size":2560,"kv_lora_rank":0,"layers":34,"linear_attention":"gated_deltanet","linear_conv_kernel":4,"linear_key_head_dim":0,"linear_num_key_heads":0,"linear_num_value_heads":0,"linear_value_head_dim":0,"max_position_embeddings":131072,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Gemma-3-4B","norm":"rmsnorm","norms_per_layer":4,"num_experts":1,"num_heads":8,"num_kv_heads":4,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","q_lora_rank":0,"qk_nope_head_dim":0,"qk_norm":true,"qk_rope_head_dim":0,"qkv_bias":false,"router_bias":false,"shared_expert_gate":false,"sliding_window":1024,"ssm_expand":2,"ssm_state_size":0,"tied_embeddings":true,"v_head_dim":0,"vocab_size":262208,"(training.dropout)":false})pin"},
    {"gemma-3-12b", R"pin({"activation":"auto","attention_output_gate":false,"attention_sinks":false,"bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":15360,"full_attention_interval":0,"global_attention_interval":6,"head_dim":256,"hidden_size":3840,"kv_lora_rank":0,"layers":48,"linear_attention":"gated_deltanet","linear_conv_kernel":4,"linear_key_head_dim":0,"linear_num_key_heads":0,"linear_num_value_heads":0,"linear_value_head_dim":0,"max_position_embeddings":131072,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Gemma-3-12B","norm":"rmsnorm","norms_per_layer":4,"num_experts":1,"num_heads":16,"num_kv_heads":8,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","q_lora_rank":0,"qk_nope_head_dim":0,"qk_norm":true,"qk_rope_head_dim":0,"qkv_bias":false,"router_bias":false,"shared_expert_gate":false,"sliding_window":1024,"ssm_expand":2,"ssm_state_size":0,"tied_embeddings":true,"v_head_dim":0,"vocab_size":262208,"(training.dropout)":false})pin"},
    {"gemma-3-27b", R"pin({"activation":"auto","attention_output_gate":false,"attention_sinks":false,"bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":21504,"full_attention_interval":0,"global_attention_interval":6,"head_dim":128,"hidden_size":5376,"kv_lora_rank":0,"layers":62,"linear_attention":"gated_deltanet","linear_conv_kernel":4,"linear_key_head_dim":0,"linear_num_key_heads":0,"linear_num_value_heads":0,"linear_value_head_dim":0,"max_position_embeddings":131072,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Gemma-3-27B","norm":"rmsnorm","norms_per_layer":4,"num_experts":1,"num_heads":32,"num_kv_heads":16,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","q_lora_rank":0,"qk_nope_head_dim":0,"qk_norm":true,"qk_rope_head_dim":0,"qkv_bias":false,"router_bias":false,"shared_expert_gate":false,"sliding_window":1024,"ssm_expand":2,"ssm_state_size":0,"tied_embeddings":true,"v_head_dim":0,"vocab_size":262208,"(training.dropout)":false})pin"},
    {"mistral-small-3.1-24b", R"pin({"activation":"auto","attention_output_gate":false,"attention_sinks":false,"bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":32768,"full_attention_interval":0,"global_attention_interval":0,"head_dim":128,"hidden_size":5120,"kv_lora_rank":0,"layers":40,"linear_attention":"gated_deltanet","linear_conv_kernel":4,"linear_key_head_dim":0,"linear_num_key_heads":0,"linear_num_value_heads":0,"linear_value_head_dim":0,"max_position_embeddings":131072,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Mistral-Small-3.1-24B","norm":"rmsnorm","norms_per_layer":2,"num_experts":1,"num_heads":32,"num_kv_heads":8,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","q_lora_rank":0,"qk_nope_head_dim":0,"qk_norm":false,"qk_rope_head_dim":0,"qkv_bias":false,"router_bias":false,"shared_expert_gate":false,"sliding_window":0,"ssm_expand":2,"ssm_state_size":0,"tied_embeddings":false,"v_head_dim":0,"vocab_size":131072,"(training.dropout)":false})pin"},
    {"llama-4-scout", R"pin({"activation":"auto","attention_output_gate":false,"attention_sinks":false,"bias":false,"dense_layers":0,"experts_per_token":1,"ffn_hidden_size":16384,"full_attention_interval":0,"global_attention_interval":4,"head_dim":128,"hidden_size":5120,"kv_lora_rank":0,"layers":48,"linear_attention":"gated_deltanet","linear_conv_kernel":4,"linear_key_head_dim":0,"linear_num_key_heads":0,"linear_num_value_heads":0,"linear_value_head_dim":0,"max_position_embeddings":10485760,"mlp":"swiglu","moe_ffn_hidden_size":8192,"name":"Llama-4-Scout-17B-16E","norm":"rmsnorm","norms_per_layer":2,"num_experts":16,"num_heads":40,"num_kv_heads":8,"num_shared_experts":1,"params_override":0.0,"position_embedding":"rope","q_lora_rank":0,"qk_nope_head_dim":0,"qk_norm":false,"qk_rope_head_dim":0,"qkv_bias":false,"router_bias":false,"shared_expert_gate":false,"sliding_window":8192,"ssm_expand":2,"ssm_state_size":0,"tied_embeddings":false,"v_head_dim":0,"vocab_size":202048,"(training.dropout)":false})pin"},
    {"llama-4-maverick", R"pin({"activation":"auto","attention_output_gate":false,"attention_sinks":false,"bias":false,"dense_layers":24,"experts_per_token":1,"ffn_hidden_size":16384,"full_attention_interval":0,"global_attention_interval":4,"head_dim":128,"hidden_size":5120,"kv_lora_rank":0,"layers":48,"linear_attention":"gated_deltanet","linear_conv_kernel":4,"linear_key_head_dim":0,"linear_num_key_heads":0,"linear_num_value_heads":0,"linear_value_head_dim":0,"max_position_embeddings":1048576,"mlp":"swiglu","moe_ffn_hidden_size":8192,"name":"Llama-4-Maverick-17B-128E","norm":"rmsnorm","norms_per_layer":2,"num_experts":128,"num_heads":40,"num_kv_heads":8,"num_shared_experts":1,"params_override":0.0,"position_embedding":"rope","q_lora_rank":0,"qk_nope_head_dim":0,"qk_norm":false,"qk_rope_head_dim":0,"qkv_bias":false,"router_bias":false,"shared_expert_gate":false,"sliding_window":8192,"ssm_expand":2,"ssm_state_size":0,"tied_embeddings":false,"v_head_dim":0,"vocab_size":202048,"(training.dropout)":false})pin"},
    {"jamba-v0.1", R"pin({"activation":"auto","attention_output_gate":false,"attention_sinks":false,"bias":false,"dense_layers":16,"experts_per_token":2,"ffn_hidden_size":14336,"full_attention_interval":8,"global_attention_interval":0,"head_dim":0,"hidden_size":4096,"kv_lora_rank":0,"layers":32,"linear_attention":"mamba","linear_conv_kernel":4,"linear_key_head_dim":0,"linear_num_key_heads":0,"linear_num_value_heads":0,"linear_value_head_dim":0,"max_position_embeddings":262144,"mlp":"swiglu","moe_ffn_hidden_size":0,"name":"Jamba-v0.1","norm":"rmsnorm","norms_per_layer":2,"num_experts":16,"num_heads":32,"num_kv_heads":8,"num_shared_experts":0,"params_override":0.0,"position_embedding":"rope","q_lora_rank":0,"qk_nope_head_dim":0,"qk_norm":false,"qk_rope_head_dim":0,"qkv_bias":false,"router_bias":false,"shared_expert_gate":false,"sliding_window":0,"ssm_expand":2,"ssm_state_size":16,"tied_embeddings":false,"v_head_dim":0,"vocab_size":65536,"(training.dropout)":false})pin"},
};
const std::pair<const char*, const char*> v2_gpu_pins[] = {
    {"V100-16GB", R"pin({"achieved_tflops":39.0,"allocator_overhead":0.05,"cuda_context_gib":0.5,"gpu":"V100-16GB","gpus_per_node":8,"inter_node_gbps":6.25,"intra_node_gbps":150.0,"memory_bandwidth_gbps":900.0,"memory_gib":15.78125,"mfu":0.0,"peak_tflops":125.0,"price_per_gpu_hour":0.9,"reserved_gib":0.0,"throughput_model":"fixed"})pin"},
    {"V100-32GB", R"pin({"achieved_tflops":39.0,"allocator_overhead":0.05,"cuda_context_gib":0.5,"gpu":"V100-32GB","gpus_per_node":8,"inter_node_gbps":6.25,"intra_node_gbps":150.0,"memory_bandwidth_gbps":900.0,"memory_gib":31.748046875,"mfu":0.0,"peak_tflops":125.0,"price_per_gpu_hour":1.0,"reserved_gib":0.0,"throughput_model":"fixed"})pin"},
    {"A100-40GB", R"pin({"achieved_tflops":150.0,"allocator_overhead":0.05,"cuda_context_gib":0.5,"gpu":"A100-40GB","gpus_per_node":8,"inter_node_gbps":25.0,"intra_node_gbps":300.0,"memory_bandwidth_gbps":1555.0,"memory_gib":40.0,"mfu":0.0,"peak_tflops":312.0,"price_per_gpu_hour":1.3,"reserved_gib":0.0,"throughput_model":"fixed"})pin"},
    {"A100-80GB", R"pin({"achieved_tflops":150.0,"allocator_overhead":0.05,"cuda_context_gib":0.5,"gpu":"A100-80GB","gpus_per_node":8,"inter_node_gbps":25.0,"intra_node_gbps":300.0,"memory_bandwidth_gbps":2039.0,"memory_gib":80.0,"mfu":0.0,"peak_tflops":312.0,"price_per_gpu_hour":1.8,"reserved_gib":0.0,"throughput_model":"fixed"})pin"},
    {"H100-SXM", R"pin({"achieved_tflops":400.0,"allocator_overhead":0.05,"cuda_context_gib":0.5,"gpu":"H100-SXM","gpus_per_node":8,"inter_node_gbps":50.0,"intra_node_gbps":450.0,"memory_bandwidth_gbps":3350.0,"memory_gib":79.6474609375,"mfu":0.0,"peak_tflops":989.0,"price_per_gpu_hour":3.0,"reserved_gib":0.0,"throughput_model":"fixed"})pin"},
    {"H100-PCIe", R"pin({"achieved_tflops":302.0,"allocator_overhead":0.05,"cuda_context_gib":0.5,"gpu":"H100-PCIe","gpus_per_node":8,"inter_node_gbps":25.0,"intra_node_gbps":64.0,"memory_bandwidth_gbps":2000.0,"memory_gib":79.6474609375,"mfu":0.0,"peak_tflops":756.0,"price_per_gpu_hour":2.5,"reserved_gib":0.0,"throughput_model":"fixed"})pin"},
    {"H200", R"pin({"achieved_tflops":400.0,"allocator_overhead":0.05,"cuda_context_gib":0.5,"gpu":"H200","gpus_per_node":8,"inter_node_gbps":50.0,"intra_node_gbps":450.0,"memory_bandwidth_gbps":4800.0,"memory_gib":140.4013671875,"mfu":0.0,"peak_tflops":989.0,"price_per_gpu_hour":3.8,"reserved_gib":0.0,"throughput_model":"fixed"})pin"},
    {"B200", R"pin({"achieved_tflops":900.0,"allocator_overhead":0.05,"cuda_context_gib":0.5,"gpu":"B200","gpus_per_node":8,"inter_node_gbps":50.0,"intra_node_gbps":900.0,"memory_bandwidth_gbps":8000.0,"memory_gib":179.0615234375,"mfu":0.0,"peak_tflops":2250.0,"price_per_gpu_hour":6.0,"reserved_gib":0.0,"throughput_model":"fixed"})pin"},
    {"L40S", R"pin({"achieved_tflops":145.0,"allocator_overhead":0.05,"cuda_context_gib":0.5,"gpu":"L40S","gpus_per_node":8,"inter_node_gbps":25.0,"intra_node_gbps":32.0,"memory_bandwidth_gbps":864.0,"memory_gib":44.98828125,"mfu":0.0,"peak_tflops":362.0,"price_per_gpu_hour":1.0,"reserved_gib":0.0,"throughput_model":"fixed"})pin"},
    {"RTX-3090", R"pin({"achieved_tflops":28.0,"allocator_overhead":0.05,"cuda_context_gib":0.5,"gpu":"RTX-3090","gpus_per_node":4,"inter_node_gbps":1.25,"intra_node_gbps":32.0,"memory_bandwidth_gbps":936.0,"memory_gib":24.0,"mfu":0.0,"peak_tflops":71.0,"price_per_gpu_hour":0.3,"reserved_gib":0.0,"throughput_model":"fixed"})pin"},
    {"RTX-4090", R"pin({"achieved_tflops":66.0,"allocator_overhead":0.05,"cuda_context_gib":0.5,"gpu":"RTX-4090","gpus_per_node":4,"inter_node_gbps":1.25,"intra_node_gbps":32.0,"memory_bandwidth_gbps":1008.0,"memory_gib":23.98828125,"mfu":0.0,"peak_tflops":165.2,"price_per_gpu_hour":0.4,"reserved_gib":0.0,"throughput_model":"fixed"})pin"},
    {"MI250X", R"pin({"achieved_tflops":77.0,"allocator_overhead":0.05,"cuda_context_gib":0.5,"gpu":"MI250X","gpus_per_node":8,"inter_node_gbps":12.5,"intra_node_gbps":50.0,"memory_bandwidth_gbps":1600.0,"memory_gib":63.984375,"mfu":0.0,"peak_tflops":191.5,"price_per_gpu_hour":1.5,"reserved_gib":0.0,"throughput_model":"fixed"})pin"},
    {"MI300X", R"pin({"achieved_tflops":523.0,"allocator_overhead":0.05,"cuda_context_gib":0.5,"gpu":"MI300X","gpus_per_node":8,"inter_node_gbps":50.0,"intra_node_gbps":448.0,"memory_bandwidth_gbps":5300.0,"memory_gib":191.6875,"mfu":0.0,"peak_tflops":1307.4,"price_per_gpu_hour":3.0,"reserved_gib":0.0,"throughput_model":"fixed"})pin"},
    {"L4", R"pin({"achieved_tflops":48.4,"allocator_overhead":0.05,"cuda_context_gib":0.5,"gpu":"L4","gpus_per_node":8,"inter_node_gbps":1.5625,"intra_node_gbps":32.0,"memory_bandwidth_gbps":300.0,"memory_gib":22.494140625,"mfu":0.0,"peak_tflops":121.0,"price_per_gpu_hour":0.8,"reserved_gib":0.0,"throughput_model":"fixed"})pin"},
    {"A10G", R"pin({"achieved_tflops":28.0,"allocator_overhead":0.05,"cuda_context_gib":0.5,"gpu":"A10G","gpus_per_node":8,"inter_node_gbps":1.5625,"intra_node_gbps":32.0,"memory_bandwidth_gbps":600.0,"memory_gib":22.48828125,"mfu":0.0,"peak_tflops":70.0,"price_per_gpu_hour":1.01,"reserved_gib":0.0,"throughput_model":"fixed"})pin"},
    {"T4", R"pin({"achieved_tflops":26.0,"allocator_overhead":0.05,"cuda_context_gib":0.5,"gpu":"T4","gpus_per_node":8,"inter_node_gbps":1.5625,"intra_node_gbps":16.0,"memory_bandwidth_gbps":320.0,"memory_gib":15.0,"mfu":0.0,"peak_tflops":65.0,"price_per_gpu_hour":0.53,"reserved_gib":0.0,"throughput_model":"fixed"})pin"},
    {"RTX-5090", R"pin({"achieved_tflops":83.8,"allocator_overhead":0.05,"cuda_context_gib":0.5,"gpu":"RTX-5090","gpus_per_node":4,"inter_node_gbps":1.25,"intra_node_gbps":64.0,"memory_bandwidth_gbps":1792.0,"memory_gib":31.8427734375,"mfu":0.0,"peak_tflops":209.5,"price_per_gpu_hour":0.69,"reserved_gib":0.0,"throughput_model":"fixed"})pin"},
    {"RTX-A6000", R"pin({"achieved_tflops":61.9,"allocator_overhead":0.05,"cuda_context_gib":0.5,"gpu":"RTX-A6000","gpus_per_node":4,"inter_node_gbps":1.25,"intra_node_gbps":32.0,"memory_bandwidth_gbps":768.0,"memory_gib":47.98828125,"mfu":0.0,"peak_tflops":154.8,"price_per_gpu_hour":1.22,"reserved_gib":0.0,"throughput_model":"fixed"})pin"},
    {"RTX-6000-Ada", R"pin({"achieved_tflops":145.7,"allocator_overhead":0.05,"cuda_context_gib":0.5,"gpu":"RTX-6000-Ada","gpus_per_node":4,"inter_node_gbps":1.25,"intra_node_gbps":32.0,"memory_bandwidth_gbps":960.0,"memory_gib":47.98828125,"mfu":0.0,"peak_tflops":364.2,"price_per_gpu_hour":0.77,"reserved_gib":0.0,"throughput_model":"fixed"})pin"},
    {"RTX-PRO-6000", R"pin({"achieved_tflops":201.5,"allocator_overhead":0.05,"cuda_context_gib":0.5,"gpu":"RTX-PRO-6000","gpus_per_node":4,"inter_node_gbps":1.25,"intra_node_gbps":64.0,"memory_bandwidth_gbps":1792.0,"memory_gib":95.5927734375,"mfu":0.0,"peak_tflops":503.8,"price_per_gpu_hour":1.79,"reserved_gib":0.0,"throughput_model":"fixed"})pin"},
    {"H100-NVL", R"pin({"achieved_tflops":334.2,"allocator_overhead":0.05,"cuda_context_gib":0.5,"gpu":"H100-NVL","gpus_per_node":8,"inter_node_gbps":25.0,"intra_node_gbps":64.0,"memory_bandwidth_gbps":3900.0,"memory_gib":93.583984375,"mfu":0.0,"peak_tflops":835.5,"price_per_gpu_hour":2.8,"reserved_gib":0.0,"throughput_model":"fixed"})pin"},
    {"H20", R"pin({"achieved_tflops":59.2,"allocator_overhead":0.05,"cuda_context_gib":0.5,"gpu":"H20","gpus_per_node":8,"inter_node_gbps":50.0,"intra_node_gbps":450.0,"memory_bandwidth_gbps":4000.0,"memory_gib":95.5771484375,"mfu":0.0,"peak_tflops":148.0,"price_per_gpu_hour":1.5,"reserved_gib":0.0,"throughput_model":"fixed"})pin"},
};
// clang-format on

TEST_CASE("v2: every model and GPU preset is pinned whole") {
    CHECK(std::size(v2_model_pins) == model_presets().size());
    for (const auto& [id, pinned] : v2_model_pins) {
        std::string link = std::string("v=2&mp=") + id + "&s=128";
        INFO(link);
        auto r = codec::decode_link(link);
        REQUIRE(r.ok());
        nlohmann::json model = codec::scenario_to_json(r.scenario)["model"];
        model["(training.dropout)"] = r.scenario.training.dropout;
        CHECK(model == nlohmann::json::parse(pinned));
        check_pinned_fields(2, r.scenario, "model", {"training.seq_len", "training.dropout"});
    }
    CHECK(std::size(v2_gpu_pins) == gpu_presets().size());
    for (const auto& [id, pinned] : v2_gpu_pins) {
        std::string link = std::string("v=2&gpu=") + id;
        INFO(link);
        auto r = codec::decode_link(link);
        REQUIRE(r.ok());
        CHECK(codec::scenario_to_json(r.scenario)["hardware"] == nlohmann::json::parse(pinned));
        check_pinned_fields(2, r.scenario, "hardware");
    }
}

TEST_CASE("v3: links are written in the current version and round-trip exactly") {
    std::vector<Scenario> samples(1);
    for (const auto& p : model_presets()) {
        Scenario s;
        apply_model_preset(s, p);
        samples.push_back(s);
        s.training.micro_batch_size = 4;
        s.model.layers += 1;  // an edited preset
        samples.push_back(s);
    }
    for (const auto& g : gpu_presets()) {
        Scenario s;
        apply_gpu_preset(s.hardware, g);
        samples.push_back(s);
        s.hardware.memory_gib = 33.3;
        samples.push_back(s);
    }
    for (const auto& s : samples) {
        INFO(s.model.name << ": " << (validate(s).empty() ? "" : validate(s)[0].field + " " + validate(s)[0].message));
        REQUIRE(validate(s).empty());
        std::string link = codec::encode_link(s);
        INFO(link);
        CHECK(link.rfind("v=3", 0) == 0);
        auto r = codec::decode_link(link);
        CHECK(r.ok());
        CHECK(same_scenario(r.scenario, s));
        CHECK(codec::encode_link(r.scenario) == link);
    }
}

TEST_CASE("v2: a model preset lowers the sequence to its positions, as on the page, and says so") {
    Scenario s;
    std::vector<Note> notes;
    apply_model_preset(s, *find_model_preset("gpt2-xl"), &notes);
    REQUIRE(notes.size() == 1);
    CHECK(notes[0].field == "training.seq_len");
    CHECK(s.training.seq_len == 1024);
    CHECK(validate(s).empty());
    CHECK(codec::encode_link(s) == "v=3&mp=gpt2-xl");  // the lowered length is what a preset link means since v2
    auto r = codec::decode_link("v=2&mp=gpt2-xl");
    CHECK(r.ok());
    CHECK(r.notes.empty());  // nothing changed from what the link means
    CHECK(r.scenario.training.seq_len == 1024);
    // A v2 link that makes the positions too few by an edit is lowered too, with a note.
    auto edited = codec::decode_link("v=2&maxpos=1024");
    CHECK(edited.ok());
    REQUIRE(edited.notes.size() == 1);
    CHECK(edited.notes[0].message == "lowered from 2048 to 1024: GPT-3 6.7B has 1024 learned positions");
}

TEST_CASE("a v1 link re-encodes as v3 with the same meaning") {
    for (const auto& e : v1_models) {
        std::string link = std::string("v=1&mp=") + e.id + "&b=2";
        auto v1 = codec::decode_link(link);
        REQUIRE(v1.ok());
        std::string v2 = codec::encode_link(v1.scenario);
        INFO(link << " -> " << v2);
        CHECK(v2.rfind("v=3", 0) == 0);
        auto again = codec::decode_link(v2);
        CHECK(again.ok());
        CHECK(same_scenario(again.scenario, v1.scenario));
    }
    for (const auto& e : v1_gpus) {
        std::string link = std::string("v=1&gpu=") + e.id;
        auto v1 = codec::decode_link(link);
        auto again = codec::decode_link(codec::encode_link(v1.scenario));
        INFO(link);
        CHECK(same_scenario(again.scenario, v1.scenario));
    }
}

TEST_CASE("unknown link versions are read as the current one, and say so") {
    for (const char* link : {"v=4&L=8", "v=0&L=8", "v=abc&L=8", "v=&L=8", "v=2.0&L=8"}) {
        INFO(link);
        auto r = codec::decode_link(link);
        REQUIRE_FALSE(r.issues.empty());
        CHECK(r.issues[0].field == "v");
        CHECK(r.scenario.model.layers == 8);
    }
    CHECK(codec::link_edition(1) == &presets_v1());
    CHECK(codec::link_edition(2) == &presets_v2());
    CHECK(codec::link_edition(codec::link_version) == &current_presets());
    CHECK(codec::link_edition(codec::link_version + 1) == nullptr);
}

TEST_CASE("today's GPU presets: memory as the device reports it, dense peak from the datasheet") {
    // nvidia-smi's total (MiB) or rocm-smi's bytes as public logs of each device print them, and the
    // dense (no sparsity) bf16/fp16 tensor peak of the datasheet (RTX: fp16 with fp32 accumulate).
    struct Device {
        const char* id;
        double reported_bytes;
        double peak_tflops;
    };
    constexpr double MiB = 1024.0 * 1024.0;
    const Device devices[] = {
        {"V100-16GB", 16160 * MiB, 125},  {"V100-32GB", 32510 * MiB, 125},   {"A100-40GB", 40960 * MiB, 312},
        {"A100-80GB", 81920 * MiB, 312},  {"H100-SXM", 81559 * MiB, 989},    {"H100-PCIe", 81559 * MiB, 756},
        {"H200", 143771 * MiB, 989},      {"B200", 183359 * MiB, 2250},      {"L40S", 46068 * MiB, 362},
        {"RTX-3090", 24576 * MiB, 71},    {"RTX-4090", 24564 * MiB, 165.2},  {"MI250X", 68702699520.0, 191.5},
        {"MI300X", 205822885888.0, 1307.4},
        // Added for fine-tuning (issue 11): L4 and T4 from modal-labs/modal-client#2797, A10G from
        // NVIDIA/DCGM#232, RTX 5090 and RTX A6000 (ECC off) from public nvidia-smi logs; peaks: L4 242
        // sparse / 2, A10G 69.5 measured (zzc0721/torch-performance-test-data#126), T4 fp16, RTX 5090 with
        // fp32 accumulate (Blackwell GeForce whitepaper), RTX A6000 datasheet.
        {"L4", 23034 * MiB, 121},         {"A10G", 23028 * MiB, 70},          {"T4", 15360 * MiB, 65},
        {"RTX-5090", 32607 * MiB, 209.5}, {"RTX-A6000", 49140 * MiB, 154.8},
        // Added for serving (issue 24), nvidia-smi totals from public logs; peaks: RTX 6000 Ada and RTX
        // PRO 6000 fp16 with fp32 accumulate (Ada / Blackwell workstation whitepapers), H100 NVL 1,671
        // sparse / 2, H20 product brief.
        {"RTX-6000-Ada", 49140 * MiB, 364.2}, {"RTX-PRO-6000", 97887 * MiB, 503.8},
        {"H100-NVL", 95830 * MiB, 835.5},     {"H20", 97871 * MiB, 148},
    };
    REQUIRE(gpu_presets().size() == std::size(devices));
    for (const auto& d : devices) {
        INFO(d.id);
        const GpuPreset* g = find_gpu_preset(d.id);
        REQUIRE(g);
        CHECK(g->memory_gib * bytes_per_gib == d.reported_bytes);
        CHECK(g->peak_tflops == d.peak_tflops);
    }
}

TEST_CASE("a revised preset changes new links only: v1 links keep the v1 figures") {
    // B200: v1 had 179 GiB; the device reports 183,359 MiB = 179.06 GiB (today's preset).
    auto v1 = codec::decode_link("v=1&gpu=B200");
    auto v2 = codec::decode_link("v=2&gpu=B200");
    CHECK(v1.scenario.hardware.memory_gib == 179);
    CHECK(v2.scenario.hardware.memory_gib == 183359.0 / 1024);
    // Re-encoding the v1 scenario names the preset and writes the v1 values explicitly (also the
    // v1 meaning of fields added later: no ZeRO-3 live parameters, no CUDA context, no allocator reserve).
    CHECK(codec::encode_link(v1.scenario) == "v=3&gpu=B200&live=0&mem=179&ctx=0&alloc=0");
    auto v100 = codec::decode_link("v=1&gpu=V100-16GB&N=16");
    CHECK(v100.scenario.hardware.memory_gib == 16);
    CHECK(codec::decode_link(codec::encode_link(v100.scenario)).scenario.hardware.memory_gib == 16);
}

// Issue 21: ZeRO-3 through DeepSpeed counted no live parameters by default although DeepSpeed
// gathers up to stage3_max_live_parameters = 1e9 of them (deepspeed/runtime/zero/config.py).
// Version 3 counts them; every v2 link keeps counting none, with or without a framework profile.
TEST_CASE("v3: DeepSpeed's stage3_max_live_parameters default; v2 links keep counting none") {
    // Per framework (fw=…): live parameters in v2 and in v3. Megatron-LM, FSDP2 and torchtune have
    // no DeepSpeed ZeRO-3 (FSDP gathers by module); the DeepSpeed profile had 1e9 already in v2.
    const struct {
        const char* fw;
        double v2, v3;
    } expected[] = {{"megatron", 0, 0}, {"deepspeed", 1e9, 1e9}, {"fsdp", 0, 0},
                    {"hf", 0, 1e9},     {"torchtune", 0, 0},     {"generic", 0, 1e9}};
    CHECK(std::size(expected) == framework_names().size());
    for (const auto& e : expected) {
        INFO(e.fw);
        auto v2 = codec::decode_link(std::string("v=2&z=3&fw=") + e.fw);
        auto v3 = codec::decode_link(std::string("v=3&z=3&fw=") + e.fw);
        REQUIRE(v2.ok());
        REQUIRE(v3.ok());
        CHECK(v2.scenario.parallel.zero3_live_params == e.v2);
        CHECK(v3.scenario.parallel.zero3_live_params == e.v3);
        // Nothing else of a profile changed in v3.
        for (const char* path : framework_profile_fields()) {
            if (std::string_view(path) == "parallel.zero3_live_params") continue;
            INFO(path);
            CHECK(json_value(v2.scenario, path) == json_value(v3.scenario, path));
        }
        // A v2 link re-encodes as v3 with its meaning: live=0 written where v3's default differs.
        auto again = codec::decode_link(codec::encode_link(v2.scenario));
        CHECK(same_scenario(again.scenario, v2.scenario));
    }
    CHECK(codec::decode_link("v=2&z=3").scenario.parallel.zero3_live_params == 0);
    CHECK(codec::decode_link("z=3").scenario.parallel.zero3_live_params == 0);  // no v: version 1
    CHECK(codec::decode_link("v=3&z=3").scenario.parallel.zero3_live_params == 1e9);
    CHECK(codec::decode_link("").scenario.parallel.zero3_live_params == 1e9);  // the bare page
    CHECK(codec::encode_link(codec::decode_link("v=2&z=3").scenario) == "v=3&z=3&live=0");

    // What it means: Llama-3-8B (8.03e9 parameters) on 8 GPUs, ZeRO-3 without tensor or pipeline
    // parallelism: min(1e9, 8.03e9) gathered parameters in bf16 (2 bytes each) = 2e9 bytes more.
    auto old = codec::decode_link("v=2&mp=llama-3-8b&z=3&gpu=H100-SXM");
    auto now = codec::decode_link("v=3&mp=llama-3-8b&z=3&gpu=H100-SXM");
    REQUIRE(old.ok());
    REQUIRE(now.ok());
    const Estimate e2 = estimate(old.scenario), e3 = estimate(now.scenario);
    CHECK(e2.memory_per_gpu_bytes.zero3_live_params == 0);
    CHECK(e3.memory_per_gpu_bytes.zero3_live_params == Approx(2e9));
}

TEST_CASE("v3: inference.weight_bytes_override and inference.sampler; links without them keep their meaning") {
    // Older links name neither: the weights follow the format's recipe (0) and vLLM's sampler is FlashInfer's,
    // which is what the estimate counted before the two fields existed.
    for (const char* link : {"", "z=3", "v=2&wl=inference&mp=llama-2-7b&ic=4096", "v=3&wl=inference&mp=llama-3-8b&gpu=H100-SXM"}) {
        INFO(link);
        auto r = codec::decode_link(link);
        REQUIRE(r.ok());
        CHECK(r.scenario.inference.weight_bytes_override == 0);
        CHECK(r.scenario.inference.sampler == Sampler::flashinfer);
        CHECK(codec::encode_link(r.scenario).find("iwb=") == std::string::npos);
        CHECK(codec::encode_link(r.scenario).find("is=") == std::string::npos);
    }
    // An imported file's exact tensor bytes (any whole number of bytes; 4,081,004,224 here): the link carries
    // them exactly and they are the weights.
    auto r = codec::decode_link("v=3&wl=inference&mp=llama-2-7b&ie=llamacpp&iw=gguf-q4_k_m&iwb=4081004224&is=pytorch");
    REQUIRE(r.ok());
    CHECK(r.scenario.inference.weight_bytes_override == 4081004224.0);
    CHECK(r.scenario.inference.sampler == Sampler::pytorch);
    CHECK(estimate(r.scenario).inference.weights_total_bytes == 4081004224.0);
    auto again = codec::decode_link(codec::encode_link(r.scenario));
    CHECK(same_scenario(again.scenario, r.scenario));
    // 0 = "from the format": the recipe's bytes, as before
    r.scenario.inference.weight_bytes_override = 0;
    CHECK(estimate(r.scenario).inference.weights_total_bytes == Approx(4.080e9).epsilon(0.001));
    // a bad value names the field
    auto bad = codec::decode_link("v=3&iwb=-5");
    bool named = false;
    for (const auto& i : bad.issues) named = named || i.field == "inference.weight_bytes_override";
    CHECK(named);
}
