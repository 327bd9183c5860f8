// Fine-tuning: trainable-parameter counts against the numbers PEFT and torchtune print for public
// models, the quantisation constants of NF4 and LLM.int8 against their papers, and what LoRA,
// QLoRA and freeze change in memory and FLOPs. Each reference names its source.
#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include <catch2/catch.hpp>

#include "core/estimate.hpp"
#include "core/fields.hpp"
#include "core/training/finetune.hpp"
#include "core/model/presets.hpp"

using namespace vramcalc;

namespace {

ModelConfig preset_model(const char* id) {
    const ModelPreset* preset = find_model_preset(id);
    REQUIRE(preset != nullptr);
    return preset->model;
}

// Llama 3.2 1B / 3B (meta-llama/Llama-3.2-*B config.json; torchtune llama3_2 builders): tied embeddings.
ModelConfig llama32(std::int64_t layers, std::int64_t hidden, std::int64_t heads, std::int64_t ffn) {
    ModelConfig m = preset_model("llama-3-8b");
    m.name = "Llama-3.2";
    m.layers = layers;
    m.hidden_size = hidden;
    m.num_heads = heads;
    m.num_kv_heads = 8;
    m.ffn_hidden_size = ffn;
    m.tied_embeddings = true;
    return m;
}

// Qwen/Qwen2.5-3B-Instruct config.json: 36 layers, hidden 2048, 16 heads / 2 KV heads, ffn 11008,
// vocab 151936, QKV biases, tied embeddings.
ModelConfig qwen25_3b() {
    ModelConfig m = preset_model("qwen2.5-7b");
    m.name = "Qwen2.5-3B";
    m.layers = 36;
    m.hidden_size = 2048;
    m.num_heads = 16;
    m.num_kv_heads = 2;
    m.ffn_hidden_size = 11008;
    m.vocab_size = 151936;
    m.tied_embeddings = true;
    return m;
}

// facebook/opt-6.7b config.json: 32 layers, hidden 4096, 32 heads, ffn 16384, vocab 50272, ReLU,
// LayerNorm with biases, learned positions with OPT's offset of 2 (2048 + 2 rows), tied embeddings.
ModelConfig opt_6_7b() {
    ModelConfig m;
    m.name = "OPT-6.7B";
    m.layers = 32;
    m.hidden_size = 4096;
    m.num_heads = 32;
    m.ffn_hidden_size = 16384;
    m.vocab_size = 50272;
    m.max_position_embeddings = 2050;
    m.activation = Activation::relu;
    return m;
}

struct Counts {
    double trainable, total;
};

Counts lora(const ModelConfig& m, std::int64_t rank, const char* targets, TrainingMethod method = TrainingMethod::lora) {
    Scenario s;
    s.model = m;
    s.training.method = method;
    s.training.lora_rank = rank;
    s.training.lora_targets = parse_lora_targets(targets);
    REQUIRE(validate(s).empty());
    Estimate e = estimate(s);
    // PEFT's "all params" includes the adapters.
    return {e.parameters.trainable, e.parameters.total + e.parameters.adapter};
}

}  // namespace

TEST_CASE("LoRA trainable parameters equal PEFT's print_trainable_parameters for public models") {
    // torchtune LoRA tutorial (docs/source/tutorials/lora_finetune.rst at bd2a0fc):
    // lora_llama2_7b(lora_attn_modules=["q_proj", "v_proj"]), rank 8:
    // "6742609920 total params, 4194304 trainable params".
    Counts llama2 = lora(preset_model("llama-2-7b"), 8, "q,v");
    CHECK(llama2.trainable == 4194304.0);
    CHECK(llama2.total == 6742609920.0);

    // PEFT README quickstart (5d602fd): Qwen/Qwen2.5-3B-Instruct, r=16, default targets for qwen2
    // (q_proj, v_proj): "trainable params: 3,686,400 || all params: 3,089,625,088".
    Counts qwen = lora(qwen25_3b(), 16, "q,v");
    CHECK(qwen.trainable == 3686400.0);
    CHECK(qwen.total == 3089625088.0);

    // PEFT quicktour (docs/source/quicktour.md at 5d602fd): meta-llama/Llama-3.2-1B,
    // target_modules=["q_proj"], r=8: "trainable params: 524,288 || all params: 1,236,338,688".
    Counts llama32_1b = lora(llama32(16, 2048, 32, 8192), 8, "q");
    CHECK(llama32_1b.trainable == 524288.0);
    CHECK(llama32_1b.total == 1236338688.0);

    // PEFT method comparison results (method_comparison/MetaMathQA/results at 5d602fd),
    // meta-llama/Llama-3.2-3B: num_trainable_params / num_total_params.
    const ModelConfig llama32_3b = llama32(28, 3072, 24, 8192);
    Counts r32 = lora(llama32_3b, 32, "q,v");  // lora--llama-3.2-3B-rank32.json
    CHECK(r32.trainable == 9175040.0);
    CHECK(r32.total == 3221924864.0);
    Counts r64 = lora(llama32_3b, 64, "q,v");  // lora--llama-3.2-3B-rank64.json
    CHECK(r64.trainable == 18350080.0);
    CHECK(r64.total == 3231099904.0);
    Counts mlp = lora(llama32_3b, 10, "up,gate,down");  // lora--llama-3.2-3B-rank10-target-mlp.json
    CHECK(mlp.trainable == 9461760.0);
    CHECK(mlp.total == 3222211584.0);

    // PEFT examples/int8_training/Finetune_opt_bnb_peft.ipynb (5d602fd): facebook/opt-6.7b in 8-bit,
    // r=16, target_modules=["q_proj", "v_proj"]: "trainable params: 8388608 || all params: 6666862592".
    // (OPT has separate q, k, v projections; vramcalc treats LayerNorm models as having a fused QKV,
    // which for q and v with a = g gives the same r·(h + 3h) = 2·r·(h + h).)
    Counts opt = lora(opt_6_7b(), 16, "q,v", TrainingMethod::qlora);
    CHECK(opt.trainable == 8388608.0);
    CHECK(opt.total == 6666862592.0);

    // PEFT guide "PEFT configurations and models" (docs/source/guides/peft_model_config.md at 5d602fd):
    // facebook/opt-350m, r=16, q_proj and v_proj: "trainable params: 1,572,864". Only the adapters are
    // comparable: OPT-350m projects 512-wide embeddings to 1024 (project_in/out), which vramcalc's
    // architecture cannot express, so its total is not checked.
    ModelConfig opt350 = opt_6_7b();
    opt350.layers = 24;
    opt350.hidden_size = 1024;
    opt350.num_heads = 16;
    opt350.ffn_hidden_size = 4096;
    CHECK(lora(opt350, 16, "q,v").trainable == 1572864.0);

    // PEFT examples/KappaTune/README.md (5d602fd): mistralai/Mixtral-8x7B-Instruct-v0.1 in 4-bit,
    // LoraConfig(r=256, target_modules=[q_proj, k_proj, v_proj, o_proj, gate_proj, up_proj, down_proj]):
    // "trainable params: 218,103,808 || all params: 46,920,896,512". Mixtral's experts name their
    // linears w1, w2, w3, so only the attention projections match: lora_targets = attention.
    Counts mixtral = lora(preset_model("mixtral-8x7b"), 256, "attention", TrainingMethod::qlora);
    CHECK(mixtral.trainable == 218103808.0);
    CHECK(mixtral.total == 46920896512.0);
}

TEST_CASE("LoRA on expert MLPs counts every expert's adapter") {
    // r·(d_in + d_out) per targeted linear [Hu et al. 2021, arXiv:2106.09685 §4.1], × E experts.
    ModelConfig m = preset_model("mixtral-8x7b");
    Scenario s;
    s.model = m;
    s.training.method = TrainingMethod::lora;
    s.training.lora_rank = 8;
    s.training.lora_targets = lora_down;
    Estimate e = estimate(s);
    CHECK(e.parameters.adapter == 32.0 * 8.0 * 8.0 * (14336.0 + 4096.0));
    CHECK(e.parameters.adapter_expert == e.parameters.adapter);
    // A token passes through k = 2 of the 8 experts.
    CHECK(e.parameters.adapter_active == e.parameters.adapter * 2.0 / 8.0);
}

TEST_CASE("freeze trains the last k layers only (LLaMA-Factory freeze_trainable_layers)") {
    // LLaMA-Factory src/llamafactory/model/adapter.py _setup_freeze_tuning: trainable_layer_ids =
    // range(num_layers - k, num_layers); embeddings, final norm and LM head stay frozen unless
    // freeze_extra_modules names them.
    Scenario s;
    s.model = preset_model("llama-3-8b");
    s.training.method = TrainingMethod::freeze;
    s.training.trainable_layers = 2;
    Estimate e = estimate(s);
    CHECK(e.parameters.trainable == 2.0 * e.parameters.per_layer);
    CHECK(e.parameters.trained_layers == 2.0);
    s.training.trainable_layers = 0;  // 0 = every layer
    CHECK(estimate(s).parameters.trainable == e.parameters.layers);
}

TEST_CASE("quantised base weights: NF4 with double quantisation is 4.127 bits, LLM.int8 8 bits plus row scales") {
    // Dettmers et al. 2023 (QLoRA, arXiv:2305.14314) §3: double quantisation "reduces the memory
    // footprint from 32/64 = 0.5 bits per parameter to 8/64 + 32/(64·256) = 0.127 bits per parameter".
    double n = 4096.0 * 4096.0;
    CHECK(quantized_matrix_bytes(BaseWeightFormat::nf4, 4096, 4096) * 8.0 / n == Approx(4.127).margin(0.0005));
    CHECK(quantized_matrix_bytes(BaseWeightFormat::nf4_no_dq, 4096, 4096) * 8.0 / n == 4.5);
    // Dettmers et al. 2022 (LLM.int8(), arXiv:2208.07339): vector-wise quantisation, one fp32 scale
    // per output row (bitsandbytes Int8Params.SCB).
    CHECK(quantized_matrix_bytes(BaseWeightFormat::int8, 4096, 11008) == 4096.0 * 11008.0 + 4.0 * 11008.0);
}

TEST_CASE("QLoRA stores the layers' linears quantised and keeps embeddings and norms 16-bit") {
    Scenario s;
    s.model = preset_model("llama-2-7b");
    s.training.method = TrainingMethod::qlora;
    s.training.precision = Precision::bf16;
    s.parallel.num_gpus = 1;
    s.parallel.zero_stage = 0;
    s.training.global_batch_size = 1;
    Estimate e = estimate(s);
    const auto& P = e.parameters;
    // Every linear of the 32 layers: 4h² attention + 3·h·f MLP.
    CHECK(P.quantized == 32.0 * (4.0 * 4096.0 * 4096.0 + 3.0 * 4096.0 * 11008.0));
    double base = (P.total - P.quantized) * 2.0 + P.quantized * (0.5 + 1.0 / 64.0 + 4.0 / (64.0 * 256.0));
    // PEFT keeps the adapters in fp32 (autocast_adapter_dtype=True): 4 bytes.
    CHECK(e.model_states_bytes.frozen_weights == Approx(base));
    CHECK(e.model_states_bytes.weights == Approx(base + 4.0 * P.adapter));
    // The dequantised copy of the largest matrix (h × f) in 16 bits is a temporary.
    CHECK(e.model_states_bytes.dequantized == 4096.0 * 11008.0 * 2.0);
}

TEST_CASE("gradients and optimizer states exist only for the trainable parameters") {
    Scenario s;
    s.model = preset_model("llama-2-7b");
    s.parallel.num_gpus = 1;
    s.parallel.zero_stage = 0;
    s.training.global_batch_size = 1;
    s.training.precision = Precision::bf16;
    s.training.method = TrainingMethod::lora;
    s.training.lora_targets = lora_q | lora_v;
    Estimate e = estimate(s);
    double adapters = e.parameters.trainable;
    // fp32 adapters: 4-byte gradients, AdamW's two fp32 states (PyTorch AdamW exp_avg, exp_avg_sq).
    CHECK(e.model_states_bytes.gradients == 4.0 * adapters);
    CHECK(e.model_states_bytes.optimizer == 8.0 * adapters);
    // torchtune keeps adapters in the model dtype: bf16 weights, gradients and states.
    s.training.adapter_dtype = AdapterDtype::match;
    Estimate m = estimate(s);
    CHECK(m.model_states_bytes.gradients == 2.0 * adapters);
    CHECK(m.model_states_bytes.optimizer == 4.0 * adapters);
    // Freeze: the trained layers have the precision's gradients and states.
    s.training.method = TrainingMethod::freeze;
    s.training.trainable_layers = 4;
    Estimate f = estimate(s);
    CHECK(f.model_states_bytes.gradients == 2.0 * f.parameters.trainable);
    CHECK(f.model_states_bytes.weights == 2.0 * f.parameters.total);
}

TEST_CASE("what frozen and adapter modules keep for backward") {
    // One Llama-2-7B layer, pure bf16, eager modules, SDPA, no dropout: what autograd saves.
    Scenario s;
    s.model = preset_model("llama-2-7b");
    s.training.precision = Precision::bf16;
    s.training.kernels = Kernels::eager;
    s.training.flash_attention = true;
    s.training.dropout = false;
    s.parallel.num_gpus = 1;
    s.parallel.zero_stage = 0;
    s.training.global_batch_size = 1;
    const double h = 4096, f = 11008, a = 32;
    LayerActivationBytes full = estimate(s).activations.layer;
    s.training.method = TrainingMethod::lora;
    s.training.adapter_dtype = AdapterDtype::match;
    s.training.lora_rank = 8;
    s.training.lora_targets = lora_q | lora_v;
    LayerActivationBytes q_v = estimate(s).activations.layer;
    // Full training: RMSNorm fp32 upcast + normalised copy (2 × 6h); QKV and MLP inputs (2 × 2h);
    // SwiGLU gate, SiLU, up, product (4 × 2f); SDPA's Q, K, V, O and log-sum-exp.
    CHECK(full.norms == 12.0 * h);
    CHECK(full.linear_inputs == 4.0 * h);
    CHECK(full.mlp == 8.0 * f);
    // Frozen norm weights: only the fp32 upcast (the normalised tensor is kept for the weight's gradient).
    CHECK(q_v.norms == 8.0 * h);
    // Frozen linears keep no input; the down-projection's input (the SwiGLU product) goes.
    CHECK(q_v.linear_inputs == 0.0);
    CHECK(q_v.mlp == 6.0 * f);
    CHECK(q_v.attention == full.attention);  // FlashAttention keeps its output O (the o input) anyway
    CHECK(q_v.qkv == full.qkv);
    CHECK(q_v.attention == 2.0 * h + 4.0 * a);
    // Adapters: q and v share their bf16 input (2h, no dropout, no cast) and keep r-wide intermediates.
    CHECK(q_v.adapters == 2.0 * h + 2.0 * 8.0 * 2.0);
    // lora_dropout > 0: each adapter keeps a 1-byte mask and its own dropped copy.
    s.training.lora_dropout = 0.05;
    CHECK(estimate(s).activations.layer.adapters == 2.0 * (1.0 + 2.0) * h + 2.0 * 8.0 * 2.0);
    // fp32 adapters without autocast: PEFT casts the input to fp32 for each adapter.
    s.training.lora_dropout = 0;
    s.training.adapter_dtype = AdapterDtype::fp32;
    CHECK(estimate(s).activations.layer.adapters == 2.0 * 4.0 * h + 2.0 * 8.0 * 4.0);
}

TEST_CASE("freeze: layers below the first trained one keep no activations") {
    Scenario s;
    s.model = preset_model("llama-2-7b");
    s.training.precision = Precision::bf16;
    s.training.kernels = Kernels::eager;
    s.training.flash_attention = true;
    s.training.dropout = false;
    s.parallel.num_gpus = 1;
    s.parallel.zero_stage = 0;
    s.training.global_batch_size = 1;
    Estimate full = estimate(s);
    s.training.method = TrainingMethod::freeze;
    s.training.trainable_layers = 4;
    Estimate frozen = estimate(s);
    CHECK(frozen.activations.transformer_layers_bytes == Approx(full.activations.transformer_layers_bytes * 4.0 / 32.0));
}

TEST_CASE("fine-tuning FLOPs: forward over every weight, weight gradients only for trainable ones") {
    Scenario s;
    s.model = preset_model("llama-2-7b");
    s.training.tokens = 1e9;
    s.training.method = TrainingMethod::lora;
    s.training.lora_targets = lora_q | lora_v;
    Estimate e = estimate(s);
    const auto& P = e.parameters;
    double D = 1e9;
    // Forward 2·(P + P_A)·D; backward: activation gradients through every weight 2·(P + P_A)·D,
    // weight gradients of the adapters 2·P_A·D. [Transformer Math 101 C = 6PD; Hu et al. 2021 §4.2]
    CHECK(e.compute.forward_flops == Approx(2.0 * (P.total + P.adapter) * D));
    CHECK(e.compute.model_flops == Approx((4.0 * (P.total + P.adapter) + 2.0 * P.adapter) * D));
    // Freeze the last 4 of 32 layers: gradients reach only those layers and the head.
    s.training.method = TrainingMethod::freeze;
    s.training.trainable_layers = 4;
    Estimate f = estimate(s);
    double through = P.total - 28.0 * P.per_layer;
    CHECK(f.compute.model_flops == Approx((2.0 * P.total + 2.0 * through + 2.0 * 4.0 * P.per_layer) * D));
    // Full recomputation runs the forward of the trained layers again: their share of 2PD and of the
    // attention core 4·L·s·h per token (s = 2048).
    s.training.recompute = Recompute::full;
    double attention = 4.0 * 32.0 * 2048.0 * 4096.0;
    CHECK(estimate(s).compute.recompute_flops == Approx((2.0 * P.total + attention) * D * 4.0 / 32.0));
}

TEST_CASE("lora_targets: one text field, named modules, PEFT spellings") {
    CHECK(parse_lora_targets("q,v") == (lora_q | lora_v));
    CHECK(parse_lora_targets("v, q") == (lora_q | lora_v));
    CHECK(parse_lora_targets("q_proj,v_proj") == (lora_q | lora_v));
    CHECK(parse_lora_targets("attention") == lora_attention);
    CHECK(parse_lora_targets("all-linear") == lora_all_linear);
    CHECK(parse_lora_targets("gate up down") == (lora_gate | lora_up | lora_down));
    CHECK(parse_lora_targets("qkv") == lora_targets_invalid);
    CHECK(parse_lora_targets("") == lora_targets_invalid);
    CHECK(format_lora_targets(lora_q | lora_v) == "q,v");
    CHECK(format_lora_targets(lora_attention) == "attention");
    CHECK(format_lora_targets(lora_all_linear) == "all_linear");
    // Through the field table, as JSON, links and the CLI use it.
    const FieldSpec* field = find_field_by_path("training.lora_targets");
    REQUIRE(field != nullptr);
    Scenario s;
    field->set_text(s, "q,k,v,o,gate,up,down");
    CHECK(field->get_text(s) == "all_linear");
}

TEST_CASE("fine-tuning fields are validated with the field's name and the rule") {
    auto first_issue = [](const Scenario& s) {
        auto issues = validate(s);
        REQUIRE(!issues.empty());
        return issues.front();
    };
    Scenario s;
    s.training.method = TrainingMethod::lora;
    s.training.lora_targets = parse_lora_targets("q,x");
    auto issue = first_issue(s);
    CHECK(issue.field == "training.lora_targets");
    CHECK(issue.message.find("q, k, v, o, gate, up, down") != std::string::npos);

    s.training.lora_targets = lora_gate;  // the default model is GPT (GELU MLP)
    issue = first_issue(s);
    CHECK(issue.field == "training.lora_targets");
    CHECK(issue.message.find("no gate") != std::string::npos);

    s = Scenario{};
    s.training.lora_rank = 0;
    CHECK(first_issue(s).field == "training.lora_rank");

    s = Scenario{};
    s.training.lora_dropout = 1.0;
    CHECK(first_issue(s).field == "training.lora_dropout");

    s = Scenario{};
    s.training.method = TrainingMethod::freeze;
    s.training.trainable_layers = 33;  // GPT-3 6.7B has 32 layers
    issue = first_issue(s);
    CHECK(issue.field == "training.trainable_layers");
    CHECK(issue.message.find("32") != std::string::npos);
}

TEST_CASE("full training is unchanged by the fine-tuning fields") {
    Scenario s;
    Estimate base = estimate(s);
    s.training.lora_rank = 64;
    s.training.lora_targets = lora_all_linear;
    s.training.lora_dropout = 0.1;
    s.training.base_weight_format = BaseWeightFormat::int8;
    Estimate changed = estimate(s);
    CHECK(changed.memory_per_gpu_bytes.total == base.memory_per_gpu_bytes.total);
    CHECK(changed.compute.total_flops == base.compute.total_flops);
    CHECK(changed.parameters.trainable == base.parameters.total);
}

TEST_CASE("adapter and frozen-module activations equal what PyTorch autograd saves (CPU measurement)") {
    // tests/data/memory/lora_saved_tensors.json: bench/memory/lora_saved_tensors.py measured the bytes
    // autograd saves in one Llama decoder layer (HF eager mirror, bf16) with PEFT's LoRA forward on a
    // frozen base, using saved-tensor hooks. The difference to full training isolates what freezing and
    // the adapters change; the base layer's own count is the memory model's (the CPU build of torch
    // 1.13 also keeps each RMSNorm's fp32 x², 4h, which CUDA builds do not, and cancels here).
    std::ifstream in(std::string(VRAMCALC_SOURCE_DIR) + "/tests/data/memory/lora_saved_tensors.json");
    REQUIRE(in.good());
    auto data = nlohmann::json::parse(in);
    const auto& shape = data.at("shape");
    Scenario s;
    s.model = preset_model("llama-2-7b");
    s.model.layers = 1;
    s.model.hidden_size = shape.at("hidden_size");
    s.model.num_heads = shape.at("num_heads");
    s.model.num_kv_heads = shape.at("num_kv_heads");
    s.model.ffn_hidden_size = shape.at("ffn_hidden_size");
    s.training.seq_len = shape.at("seq_len");
    s.training.micro_batch_size = shape.at("micro_batch_size");
    s.training.global_batch_size = s.training.micro_batch_size;
    s.training.precision = Precision::bf16;
    s.training.kernels = Kernels::eager;
    s.training.flash_attention = false;
    s.training.dropout = false;
    s.parallel.num_gpus = 1;
    s.parallel.zero_stage = 0;
    auto layer_bytes = [&](const nlohmann::json& record) {
        Scenario c = s;
        c.training.method = record.at("method") == "full" ? TrainingMethod::full : TrainingMethod::lora;
        c.training.lora_rank = record.at("lora_rank");
        std::string targets = record.at("lora_targets");
        c.training.lora_targets = targets.empty() ? lora_q : parse_lora_targets(targets);
        c.training.lora_dropout = record.at("lora_dropout");
        c.training.adapter_dtype = record.at("adapter_dtype") == "fp32" ? AdapterDtype::fp32 : AdapterDtype::match;
        REQUIRE(validate(c).empty());
        return estimate(c).activations.per_layer_bytes;
    };
    const auto& records = data.at("records");
    REQUIRE(records.size() >= 8);
    const auto& full = records.at(0);
    REQUIRE(full.at("method") == "full");
    double full_measured = full.at("saved_bytes");
    double full_predicted = layer_bytes(full);
    for (std::size_t i = 1; i < records.size(); ++i) {
        const auto& r = records.at(i);
        INFO(r.dump());
        double measured = double(r.at("saved_bytes")) - full_measured;
        double predicted = layer_bytes(r) - full_predicted;
        // `lora_B(...) * scaling` saves the Python float as a 0-dim fp64 tensor: 8 bytes per adapter.
        std::string targets = r.at("lora_targets");
        double adapters = double(std::count(targets.begin(), targets.end(), ',') + 1);
        CHECK(predicted + 8.0 * adapters == measured);
    }
}

TEST_CASE("issue 22.3: ZeRO 0 → 1 under FSDP never raises LoRA/QLoRA activations with an AMP precision") {
    // ZeRO 0 runs under autocast; FSDP sharding (ZeRO ≥ 1) casts every parameter to param_dtype
    // instead, fp32 adapters too (torch.distributed.fsdp MixedPrecision), so PEFT's cast of the input
    // to lora_A.weight.dtype is a no-op on the 16-bit activations (peft/tuners/lora/layer.py): no
    // fp32 adapter-input copies. Over the grid of the issue's probe (models, methods, AMP precisions,
    // kernels, targets, dropout) sharding the optimizer never adds an activation byte.
    int steps = 0;
    for (const char* model : {"llama-3-8b", "gpt2", "qwen2.5-7b"})
        for (TrainingMethod method : {TrainingMethod::lora, TrainingMethod::qlora})
            for (Precision precision : {Precision::amp_bf16, Precision::amp_fp16})
                for (Kernels kernels : {Kernels::eager, Kernels::compiled})
                    for (std::uint32_t targets : {std::uint32_t(lora_q | lora_v), std::uint32_t(lora_all_linear)})
                        for (double dropout : {0.0, 0.05}) {
                            const ModelPreset* preset = find_model_preset(model);
                            if (!preset) continue;
                            Scenario s;
                            s.model = preset->model;
                            s.training.seq_len = std::min<std::int64_t>(1024, s.model.max_position_embeddings);
                            s.training.method = method;
                            s.training.precision = precision;
                            s.training.kernels = kernels;
                            s.training.lora_targets = targets;
                            s.training.lora_dropout = dropout;
                            s.training.adapter_dtype = AdapterDtype::fp32;
                            s.training.global_batch_size = 8;
                            s.parallel.num_gpus = 8;
                            s.parallel.zero_impl = ZeroImpl::fsdp;
                            s.parallel.zero_stage = 0;
                            REQUIRE(validate(s).empty());
                            const double zero0 = estimate(s).memory_per_gpu_bytes.activations;
                            s.parallel.zero_stage = 1;
                            const Estimate sharded = estimate(s);
                            INFO(model << " method " << int(method) << " precision " << int(precision) << " kernels "
                                       << int(kernels) << " targets " << targets << " dropout " << dropout);
                            CHECK(sharded.memory_per_gpu_bytes.activations <= zero0);
                            // The adapters read the 16-bit activations: shared, no copy, without dropout.
                            if (dropout == 0 && method == TrainingMethod::lora) {
                                s.training.precision = precision == Precision::amp_bf16 ? Precision::bf16 : Precision::fp16;
                                s.training.adapter_dtype = AdapterDtype::match;
                                CHECK(sharded.activations.layer.adapters == estimate(s).activations.layer.adapters);
                            }
                            ++steps;
                        }
    CHECK(steps >= 36);
}
