// Hugging Face config.json import, on the published config.json files of tests/data/hf/ (see its
// README for how they were obtained). The expected counts are the published parameter counts (model
// cards / papers), independent of our formulas.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include "codec/import_hf.hpp"
#include "codec/scenario_json.hpp"
#include "core/estimate.hpp"
#include "core/model/presets.hpp"

using namespace vramcalc;
using codec::import_hf_config;

namespace {

// The published config.json files, said once: tests/data/hf/ (also the fuzz corpus of
// fuzz_import_hf, which links to them). tests/data/hf/README.md names the Hub repository of each.
std::string hf_config(const char* name) {
    std::ifstream in(std::string(VRAMCALC_SOURCE_DIR) + "/tests/data/hf/" + name + ".json", std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

const std::string llama2_7b = hf_config("llama2_7b");  // meta-llama/Llama-2-7b-hf
const std::string llama3_8b = hf_config("llama3_8b");  // meta-llama/Meta-Llama-3-8B
const std::string mixtral_8x7b = hf_config("mixtral_8x7b");  // mistralai/Mixtral-8x7B-v0.1
const std::string gpt2 = hf_config("gpt2");  // openai-community/gpt2
const std::string gpt2_xl = hf_config("gpt2_xl");  // openai-community/gpt2-xl
const std::string mistral_7b = hf_config("mistral_7b");  // mistralai/Mistral-7B-v0.1
const std::string qwen25_7b = hf_config("qwen25_7b");  // Qwen/Qwen2.5-7B
const std::string gemma_7b = hf_config("gemma_7b");  // google/gemma-7b
const std::string gemma_2b = hf_config("gemma_2b");  // google/gemma-2b (head_dim 256 = hidden_size / heads, multi-query attention)
const std::string neox_20b = hf_config("neox_20b");  // EleutherAI/gpt-neox-20b
const std::string pythia_1b = hf_config("pythia_1b");  // EleutherAI/pythia-1b

double total(const Scenario& s) { return estimate(s).parameters.total; }

double preset_total(const char* id) {
    const ModelPreset* p = find_model_preset(id);
    REQUIRE(p != nullptr);
    Scenario s;
    s.model = p->model;
    return total(s);
}

bool has(const std::vector<std::string>& list, const std::string& item) {
    return std::find(list.begin(), list.end(), item) != list.end();
}

bool has_issue(const codec::ImportResult& r, const std::string& field, const std::string& fragment = "") {
    return std::any_of(r.issues.begin(), r.issues.end(), [&](const ValidationIssue& i) {
        return i.field == field && i.message.find(fragment) != std::string::npos;
    });
}

bool note_contains(const codec::ImportResult& r, const std::string& fragment) {
    return std::any_of(r.notes.begin(), r.notes.end(),
                       [&](const std::string& n) { return n.find(fragment) != std::string::npos; });
}

std::string issues_text(const codec::ImportResult& r) {
    std::string out;
    for (const auto& i : r.issues) out += i.field + ": " + i.message + "\n";
    return out;
}

}  // namespace

TEST_CASE("the config.json fixtures are there") {
    for (const std::string* config : {&llama2_7b, &llama3_8b, &mixtral_8x7b, &gpt2, &gpt2_xl, &mistral_7b, &qwen25_7b,
                                      &gemma_7b, &gemma_2b, &neox_20b, &pythia_1b})
        REQUIRE(config->size() > 100);
}

TEST_CASE("real config.json files give the published parameter counts and the matching preset") {
    struct Case {
        const std::string& config;
        const char* family;
        const char* preset;
        double published;  // source in the comment
    };
    const Case cases[] = {
        {llama2_7b, "llama", "llama-2-7b", 6738415616.0},     // Llama 2 7B as counted by transformers
        {llama3_8b, "llama", "llama-3-8b", 8030261248.0},     // Meta-Llama-3-8B model card: 8.03B
        {mixtral_8x7b, "mixtral", "mixtral-8x7b", 46702792704.0},  // Mixtral 8x7B: 46.7B total
        {gpt2, "gpt2", "gpt2", 124439808.0},                  // GPT-2 small checkpoint: 124,439,808
        {gpt2_xl, "gpt2", "gpt2-xl", 1557611200.0},           // GPT-2 XL checkpoint: 1,557,611,200
        {mistral_7b, "mistral", "mistral-7b", 7241732096.0},  // Mistral-7B-v0.1: 7.24B
        {qwen25_7b, "qwen2", "qwen2.5-7b", 7615616512.0},     // Qwen2.5-7B model card: 7.61B
        {gemma_7b, "gemma", "gemma-7b", 8537680896.0},        // Gemma 7B: 8.54B (embeddings included)
        {gemma_2b, "gemma", "gemma-2b", 2506172416.0},        // Gemma 2B: 2.51B
        {neox_20b, "gpt_neox", "gpt-neox-20b", 20554567680.0},  // Black et al. 2022, Table 1
        {pythia_1b, "gpt_neox", "pythia-1b", 1011781632.0},   // Biderman et al. 2023, Table 1
    };
    for (const auto& c : cases) {
        INFO(c.preset);
        auto r = import_hf_config(c.config);
        INFO(issues_text(r));
        REQUIRE(r.ok());
        CHECK(r.family == c.family);
        CHECK(total(r.scenario) == c.published);
        CHECK(total(r.scenario) == preset_total(c.preset));
        CHECK(r.scenario.model.name == find_model_preset(c.preset)->model.name);
        CHECK(note_contains(r, std::string("matches the preset ") + c.preset));
        CHECK(validate(r.scenario).empty());
    }
}

TEST_CASE("Mixtral config maps experts: total and active parameters") {
    auto r = import_hf_config(mixtral_8x7b);
    REQUIRE(r.ok());
    CHECK(r.scenario.model.num_experts == 8);
    CHECK(r.scenario.model.experts_per_token == 2);
    auto p = estimate(r.scenario).parameters;
    CHECK(p.total == 46702792704.0);
    // Jiang et al. 2024: "13B active parameters"; Mistral's announcement: 12.9B.
    CHECK_THAT(p.active, Catch::Matchers::WithinRel(12.9e9, 0.005));
}

TEST_CASE("family defaults: norm, MLP, biases, positions, tying") {
    auto neox = import_hf_config(neox_20b).scenario.model;
    CHECK(neox.norm == NormKind::layernorm);
    CHECK(neox.mlp == MlpKind::gelu);
    CHECK(neox.bias);
    CHECK_FALSE(neox.tied_embeddings);
    CHECK(neox.position_embedding == PositionEmbedding::rope);

    auto g2 = import_hf_config(gpt2).scenario.model;
    CHECK(g2.position_embedding == PositionEmbedding::learned);
    CHECK(g2.tied_embeddings);  // GPT2Config leaves tie_word_embeddings at its default, true
    CHECK(g2.bias);
    CHECK(g2.max_position_embeddings == 1024);

    auto qwen = import_hf_config(qwen25_7b).scenario.model;
    CHECK(qwen.qkv_bias);
    CHECK_FALSE(qwen.bias);

    auto gemma = import_hf_config(gemma_7b).scenario.model;
    CHECK(gemma.head_dim == 256);
    CHECK(gemma.mlp == MlpKind::swiglu);  // GeGLU: three h×f matrices like SwiGLU
    CHECK(gemma.tied_embeddings);         // GemmaConfig default
    CHECK(gemma.norm == NormKind::rmsnorm);
}

TEST_CASE("a small custom Llama config counts exactly by hand") {
    // LlamaForCausalLM modules: embed 100×64; per layer q 64×64, k and v 64×32 (2 KV heads of 16),
    // o 64×64, gate/up/down 3×64×128, two RMSNorm weights 2×64; final norm 64; tied head.
    // = 6400 + 2 × (4096 + 2048 + 2048 + 4096 + 24576 + 128) + 64 = 80448.
    auto r = import_hf_config(R"({"model_type": "llama", "num_hidden_layers": 2, "hidden_size": 64,
        "num_attention_heads": 4, "num_key_value_heads": 2, "intermediate_size": 128, "vocab_size": 100,
        "tie_word_embeddings": true, "max_position_embeddings": 512})");
    REQUIRE(r.ok());
    CHECK(total(r.scenario) == 80448.0);
    CHECK(r.scenario.model.name == "Llama (HF config)");
    // Defaults noted, not silent: nothing else to note here except nothing unmapped.
    CHECK(r.unmapped_keys.empty());
    CHECK(r.ignored_keys.empty());
}

TEST_CASE("unmapped and metadata keys are listed, not dropped") {
    auto r = import_hf_config(llama3_8b);
    REQUIRE(r.ok());
    for (const char* key : {"rope_theta", "rms_norm_eps", "bos_token_id", "eos_token_id", "use_cache",
                            "initializer_range", "pretraining_tp", "rope_scaling"})
        CHECK(has(r.unmapped_keys, key));
    // Read now: the activation (it decides what eager kernels keep) and the dropout probabilities.
    for (const char* key : {"hidden_act", "attention_dropout"}) CHECK_FALSE(has(r.unmapped_keys, key));
    for (const char* key : {"architectures", "torch_dtype", "transformers_version"}) {
        CHECK(has(r.ignored_keys, key));
        CHECK_FALSE(has(r.unmapped_keys, key));
    }
    CHECK(note_contains(r, "ignored (metadata): architectures, torch_dtype, transformers_version"));
    for (const char* mapped : {"hidden_size", "num_hidden_layers", "num_key_value_heads", "attention_bias", "model_type"})
        CHECK_FALSE(has(r.unmapped_keys, mapped));

    auto q = import_hf_config(R"({"model_type": "mistral", "num_hidden_layers": 2, "hidden_size": 64,
        "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 100,
        "quantization_config": {"quant_method": "awq", "bits": 4}, "sliding_window": 4096})");
    REQUIRE(q.ok());
    // quantization_config sets inference.weight_format now (issue 24; tests/test_import_hf_quant.cpp).
    CHECK_FALSE(has(q.unmapped_keys, "quantization_config"));
    CHECK(q.scenario.inference.weight_format == WeightFormat::awq);
    CHECK(has(q.unmapped_keys, "sliding_window"));
    CHECK(note_contains(q, "not modelled by the estimator (check them yourself): sliding_window"));
    CHECK(note_contains(q, "max_position_embeddings not given"));
}

TEST_CASE("the base scenario's training, parallel and hardware settings are kept") {
    Scenario base;
    base.parallel.num_gpus = 64;
    base.parallel.zero_stage = 3;
    base.training.seq_len = 4096;
    base.hardware.memory_gib = 40;
    base.model.params_override = 1e9;  // replaced by the imported architecture
    auto r = import_hf_config(llama3_8b, base);
    REQUIRE(r.ok());
    CHECK(r.scenario.parallel.num_gpus == 64);
    CHECK(r.scenario.parallel.zero_stage == 3);
    CHECK(r.scenario.training.seq_len == 4096);
    CHECK(r.scenario.hardware.memory_gib == 40);
    CHECK(r.scenario.model.params_override == 0);

    // Learned positions cap the sequence length: GPT-2 with a 4096-token base is lowered to 1024.
    auto g = import_hf_config(gpt2, base);
    REQUIRE(g.ok());
    CHECK(g.scenario.training.seq_len == 1024);
    CHECK(note_contains(g, "training.seq_len lowered from 4096 to 1024"));
    CHECK(validate(g.scenario).empty());
}

TEST_CASE("errors name the Hugging Face key") {
    SECTION("malformed JSON") {
        auto r = import_hf_config(R"({"model_type": "llama", "hidden_size": 4096,,})");
        REQUIRE(r.issues.size() == 1);
        CHECK(r.issues[0].field == "json");
        CHECK(r.issues[0].message.find("syntax error at byte") != std::string::npos);
    }
    SECTION("not an object") {
        CHECK(has_issue(import_hf_config("[1, 2]"), "json", "must be a JSON object"));
        CHECK(has_issue(import_hf_config("42"), "json"));
        CHECK(has_issue(import_hf_config(""), "json", "not valid JSON"));
    }
    SECTION("wrong types") {
        auto r = import_hf_config(R"({"model_type": "llama", "num_hidden_layers": "32", "hidden_size": 4096.5,
            "num_attention_heads": -4, "intermediate_size": 11008, "vocab_size": 32000, "tie_word_embeddings": "no"})");
        CHECK(has_issue(r, "num_hidden_layers", "must be an integer (got the text \"32\")"));
        CHECK(has_issue(r, "hidden_size", "must be an integer"));
        CHECK(has_issue(r, "num_attention_heads", "must be an integer from 1 to 2^53 = 9007199254740992 (got -4)"));
        CHECK(has_issue(r, "tie_word_embeddings", "true or false"));
        CHECK(has_issue(import_hf_config(R"({"model_type": 7})"), "model_type", "must be a string"));
    }
    SECTION("missing required keys") {
        auto r = import_hf_config(R"({"model_type": "qwen2", "hidden_size": 64})");
        CHECK(has_issue(r, "num_hidden_layers", "is missing"));
        CHECK(has_issue(r, "num_attention_heads", "is missing"));
        CHECK(has_issue(r, "intermediate_size", "is missing"));
        CHECK(has_issue(r, "vocab_size", "is missing"));
        CHECK_FALSE(has_issue(r, "hidden_size"));
        auto g = import_hf_config(R"({"model_type": "gpt2", "n_embd": 64, "n_head": 4, "vocab_size": 10})");
        CHECK(has_issue(g, "n_layer", "is missing"));
        CHECK_FALSE(has_issue(g, "n_inner"));  // optional: 4·n_embd
    }
    SECTION("unsupported or missing family") {
        CHECK(has_issue(import_hf_config(R"({"model_type": "bert", "hidden_size": 768})"), "model_type",
                        "not a supported family"));
        CHECK(has_issue(import_hf_config(R"({"hidden_size": 768})"), "model_type", "is missing"));
    }
    SECTION("impossible shapes are reported under the key that set them") {
        auto r = import_hf_config(R"({"model_type": "llama", "num_hidden_layers": 2, "hidden_size": 100,
            "num_attention_heads": 3, "intermediate_size": 128, "vocab_size": 100})");
        CHECK(has_issue(r, "hidden_size", "model.hidden_size"));
        auto kv = import_hf_config(R"({"model_type": "llama", "num_hidden_layers": 2, "hidden_size": 64,
            "num_attention_heads": 4, "num_key_value_heads": 3, "intermediate_size": 128, "vocab_size": 100})");
        CHECK(has_issue(kv, "num_key_value_heads", "must divide model.num_heads"));
        auto moe = import_hf_config(R"({"model_type": "mixtral", "num_hidden_layers": 2, "hidden_size": 64,
            "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 100, "num_local_experts": 2,
            "num_experts_per_tok": 3})");
        CHECK(has_issue(moe, "num_experts_per_tok"));
    }
    SECTION("GPT-2 aliases must agree") {
        auto r = import_hf_config(R"({"model_type": "gpt2", "n_layer": 2, "n_embd": 64, "hidden_size": 128,
            "n_head": 4, "vocab_size": 10})");
        CHECK(has_issue(r, "hidden_size", "disagrees with n_embd"));
        auto same = import_hf_config(R"({"model_type": "gpt2", "n_layer": 2, "n_embd": 64, "hidden_size": 64,
            "n_head": 4, "vocab_size": 10})");
        CHECK(same.ok());
    }
}

TEST_CASE("family from architectures when model_type is missing; disagreement is noted") {
    auto r = import_hf_config(R"({"architectures": ["MistralForCausalLM"], "num_hidden_layers": 2, "hidden_size": 64,
        "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 100})");
    REQUIRE(r.ok());
    CHECK(r.family == "mistral");
    CHECK(note_contains(r, "family taken from architectures"));
    auto d = import_hf_config(R"({"model_type": "llama", "architectures": ["Qwen2ForCausalLM"], "num_hidden_layers": 2,
        "hidden_size": 64, "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 100})");
    REQUIRE(d.ok());
    CHECK(d.family == "llama");
    CHECK(note_contains(d, "model_type decides"));
}

TEST_CASE("biases the scenario cannot express exactly are approximated with a note") {
    const char* both = R"({"model_type": "llama", "num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 4,
        "intermediate_size": 128, "vocab_size": 100, "attention_bias": true, "mlp_bias": true})";
    auto r = import_hf_config(both);
    REQUIRE(r.ok());
    CHECK(r.scenario.model.bias);
    CHECK(r.notes.end() == std::find_if(r.notes.begin(), r.notes.end(), [](const std::string& n) {
              return n.starts_with("approximate");
          }));
    auto a = import_hf_config(R"({"model_type": "llama", "num_hidden_layers": 2, "hidden_size": 64,
        "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 100, "attention_bias": true})");
    REQUIRE(a.ok());
    CHECK(a.scenario.model.qkv_bias);
    CHECK(note_contains(a, "approximate: attention_bias without mlp_bias"));
    auto n = import_hf_config(R"({"model_type": "gpt_neox", "num_hidden_layers": 2, "hidden_size": 64,
        "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 100, "attention_bias": false})");
    REQUIRE(n.ok());
    CHECK(note_contains(n, "approximate"));
}

TEST_CASE("hostile input: huge numbers, NaN-like text, deep nesting and big files are rejected cleanly") {
    CHECK(has_issue(import_hf_config(R"({"model_type": "llama", "num_hidden_layers": 1e400})"), "json"));  // overflow
    CHECK(has_issue(import_hf_config(R"({"model_type": "llama", "num_hidden_layers": 1e300})"), "num_hidden_layers"));
    CHECK(has_issue(import_hf_config(R"({"model_type": "llama", "num_hidden_layers": 18446744073709551615})"),
                    "num_hidden_layers"));
    CHECK(has_issue(import_hf_config(R"({"model_type": "llama", "hidden_size": NaN})"), "json"));
    std::string deep(5000, '[');
    CHECK(has_issue(import_hf_config(deep), "json"));
    std::string big = "{\"x\": \"" + std::string(codec::max_import_bytes, 'a') + "\"}";
    CHECK(has_issue(import_hf_config(big), "json", "larger than"));
    // Validation bounds of the core (e.g. 10^7 for widths) come back under the HF key.
    auto wide = import_hf_config(R"({"model_type": "llama", "num_hidden_layers": 2, "hidden_size": 4000000000,
        "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 100})");
    CHECK(has_issue(wide, "hidden_size", "model.hidden_size"));
}

TEST_CASE("the activation and dropout come from the config, as the model trains") {
    // GPT-2 (HF config.json): activation_function "gelu_new", attn/resid/embd pdrop 0.1.
    auto g = import_hf_config(gpt2);
    REQUIRE(g.ok());
    CHECK(g.scenario.model.activation == Activation::gelu_new);
    CHECK(g.scenario.training.dropout);
    CHECK(g.scenario.model.name == "GPT-2 124M");  // still matches the preset
    // Llama 3 8B: hidden_act "silu" (the gated MLP's usual activation), attention_dropout 0.0.
    auto l = import_hf_config(llama3_8b);
    REQUIRE(l.ok());
    CHECK(l.scenario.model.activation == Activation::auto_);
    CHECK_FALSE(l.scenario.training.dropout);
    CHECK(l.scenario.model.name == "Llama-3-8B");
}
