// Link versions: what a shared link means must never change.
// Version 1 links (vramcalc 0.1.0, and every link without `v`) decode against the defaults and
// preset tables of that release. The expected values below are those tables written out by hand
// (src/core/presets.cpp and scenario.hpp at commit 6e793b9, the release v1 links were made
// with; the architectures are the published config.json values cited there). They are data, not
// read from the code under test: a change to today's presets must leave every row here passing.
// Version 2 (current) links round-trip every scenario exactly.
#include <catch2/catch.hpp>

#include <string>

#include "codec/codec.hpp"
#include "core/fields.hpp"
#include "core/presets.hpp"

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
};

const V1Gpu v1_gpus[] = {
    {"V100-16GB", 16, 125, 39, 0.9},
    {"V100-32GB", 32, 125, 39, 1},
    {"A100-40GB", 40, 312, 150, 1.3},
    {"A100-80GB", 80, 312, 150, 1.8},
    {"H100-SXM", 79.6, 989, 400, 3},
    {"H100-PCIe", 79.6, 756, 302, 2.5},
    {"H200", 140.4, 989, 400, 3.8},
    {"B200", 179, 2250, 900, 6},
    {"L40S", 45, 362, 145, 1},
    {"RTX-3090", 24, 71, 28, 0.3},
    {"RTX-4090", 24, 165.2, 66, 0.4},
    {"MI250X", 64, 191.5, 77, 1.5},
    {"MI300X", 192, 1307.4, 523, 3},
};

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

TEST_CASE("v1: the defaults, with and without v=1") {
    for (const char* link : {"v=1", "", "#v=1", "#"}) {
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
        check_v1_defaults_except_model_and_gpu(r.scenario);
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

TEST_CASE("v2: links are written in the current version and round-trip exactly") {
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
        CHECK(link.rfind("v=2", 0) == 0);
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
    CHECK(codec::encode_link(s) == "v=2&mp=gpt2-xl");  // the lowered length is what a v2 preset link means
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

TEST_CASE("a v1 link re-encodes as v2 with the same meaning") {
    for (const auto& e : v1_models) {
        std::string link = std::string("v=1&mp=") + e.id + "&b=2";
        auto v1 = codec::decode_link(link);
        REQUIRE(v1.ok());
        std::string v2 = codec::encode_link(v1.scenario);
        INFO(link << " -> " << v2);
        CHECK(v2.rfind("v=2", 0) == 0);
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
    for (const char* link : {"v=3&L=8", "v=0&L=8", "v=abc&L=8", "v=&L=8", "v=2.0&L=8"}) {
        INFO(link);
        auto r = codec::decode_link(link);
        REQUIRE_FALSE(r.issues.empty());
        CHECK(r.issues[0].field == "v");
        CHECK(r.scenario.model.layers == 8);
    }
    CHECK(codec::link_edition(1) == &presets_v1());
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
    // v1 meaning of fields added later: no CUDA context, no allocator reserve).
    CHECK(codec::encode_link(v1.scenario) == "v=2&gpu=B200&mem=179&ctx=0&alloc=0");
    auto v100 = codec::decode_link("v=1&gpu=V100-16GB&N=16");
    CHECK(v100.scenario.hardware.memory_gib == 16);
    CHECK(codec::decode_link(codec::encode_link(v100.scenario)).scenario.hardware.memory_gib == 16);
}
