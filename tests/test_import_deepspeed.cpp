// DeepSpeed config import. Expected values follow DeepSpeed's documented config semantics
// (deepspeed.ai/docs/config-json: defaults stage 0, fp16/bf16 disabled, offload device "none",
// stage3_max_live_parameters 1e9; train_batch_size = micro × gradient_accumulation × world size).
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "codec/codec.hpp"
#include "codec/import_deepspeed.hpp"
#include "codec/import_hf.hpp"
#include "core/estimate.hpp"
#include "core/model/presets.hpp"

using namespace vramcalc;
using codec::import_deepspeed_config;

namespace {

// The ZeRO-3 + CPU offload example of DeepSpeed's tutorials, with explicit batch sizes.
constexpr const char* zero3_offload = R"({
  "train_micro_batch_size_per_gpu": 4,
  "gradient_accumulation_steps": 8,
  "steps_per_print": 100,
  "gradient_clipping": 1.0,
  "optimizer": {
    "type": "AdamW",
    "params": {"lr": 3e-5, "betas": [0.9, 0.95], "eps": 1e-8, "weight_decay": 0.1}
  },
  "bf16": {"enabled": true},
  "zero_optimization": {
    "stage": 3,
    "offload_optimizer": {"device": "cpu", "pin_memory": true},
    "overlap_comm": true,
    "contiguous_gradients": true,
    "reduce_bucket_size": 5e8,
    "stage3_prefetch_bucket_size": 5e8,
    "stage3_param_persistence_threshold": 1e6,
    "stage3_gather_16bit_weights_on_model_save": true
  },
  "wall_clock_breakdown": false
})";

// The Hugging Face Trainer's ds_config_zero3.json (transformers docs, "DeepSpeed integration").
constexpr const char* hf_trainer_zero3 = R"({
    "fp16": {
        "enabled": "auto",
        "loss_scale": 0,
        "loss_scale_window": 1000,
        "initial_scale_power": 16,
        "hysteresis": 2,
        "min_loss_scale": 1
    },
    "bf16": {
        "enabled": "auto"
    },
    "optimizer": {
        "type": "AdamW",
        "params": {
            "lr": "auto",
            "betas": "auto",
            "eps": "auto",
            "weight_decay": "auto"
        }
    },
    "scheduler": {
        "type": "WarmupLR",
        "params": {
            "warmup_min_lr": "auto",
            "warmup_max_lr": "auto",
            "warmup_num_steps": "auto"
        }
    },
    "zero_optimization": {
        "stage": 3,
        "offload_optimizer": {
            "device": "cpu",
            "pin_memory": true
        },
        "offload_param": {
            "device": "cpu",
            "pin_memory": true
        },
        "overlap_comm": true,
        "contiguous_gradients": true,
        "sub_group_size": 1e9,
        "reduce_bucket_size": "auto",
        "stage3_prefetch_bucket_size": "auto",
        "stage3_param_persistence_threshold": "auto",
        "stage3_max_live_parameters": 1e9,
        "stage3_max_reuse_distance": 1e9,
        "stage3_gather_16bit_weights_on_model_save": true
    },
    "gradient_accumulation_steps": "auto",
    "gradient_clipping": "auto",
    "steps_per_print": 2000,
    "train_batch_size": "auto",
    "train_micro_batch_size_per_gpu": "auto",
    "wall_clock_breakdown": false
})";

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

}  // namespace

TEST_CASE("ZeRO-3 with CPU optimizer offload, bf16 and explicit batch sizes") {
    auto r = import_deepspeed_config(zero3_offload);
    REQUIRE(r.ok());
    CHECK(r.family == "deepspeed");
    const auto& s = r.scenario;
    CHECK(s.parallel.zero_stage == 3);
    CHECK(s.parallel.offload_optimizer);
    CHECK(s.parallel.zero3_live_params == 1e9);  // DeepSpeed's default, noted
    CHECK(note_contains(r, "stage3_max_live_parameters not given: DeepSpeed's default 1e9"));
    CHECK(s.training.precision == Precision::mixed_bf16);
    CHECK(s.training.optimizer == Optimizer::adamw);
    CHECK(s.training.micro_batch_size == 4);
    CHECK(s.training.grad_accum_steps == 8);
    CHECK(s.training.global_batch_size == 0);  // derived: 4 × 8 × DP
    CHECK(validate(s).empty());
    // 8 GPUs of the default scenario: global batch 4 × 8 × 8 = 256.
    CHECK(resolve_layout(s).global_batch_size == 256);
    for (const char* key : {"zero_optimization.overlap_comm", "zero_optimization.reduce_bucket_size",
                            "zero_optimization.stage3_prefetch_bucket_size", "zero_optimization.offload_optimizer.pin_memory",
                            "optimizer.params", "steps_per_print", "gradient_clipping", "wall_clock_breakdown"})
        CHECK(has(r.unmapped_keys, key));
    for (const char* mapped : {"zero_optimization.stage", "zero_optimization.offload_optimizer.device", "bf16.enabled",
                               "train_micro_batch_size_per_gpu", "gradient_accumulation_steps", "optimizer.type"})
        CHECK_FALSE(has(r.unmapped_keys, mapped));
    CHECK(note_contains(r, "not modelled by the estimator"));
}

TEST_CASE("the Hugging Face Trainer's \"auto\" values keep the base scenario's settings") {
    Scenario base;
    base.training.precision = Precision::mixed_fp16;
    base.training.micro_batch_size = 2;
    base.training.global_batch_size = 512;
    auto r = import_deepspeed_config(hf_trainer_zero3, base);
    REQUIRE(r.ok());
    CHECK(r.scenario.training.precision == Precision::mixed_fp16);
    CHECK(r.scenario.training.micro_batch_size == 2);
    CHECK(r.scenario.training.global_batch_size == 512);
    CHECK(r.scenario.parallel.zero_stage == 3);
    CHECK(r.scenario.parallel.offload_optimizer);
    CHECK(r.scenario.parallel.zero3_live_params == 1e9);
    CHECK(note_contains(r, "fp16.enabled is \"auto\""));
    CHECK(note_contains(r, "bf16.enabled is \"auto\""));
    CHECK(note_contains(r, "train_batch_size is \"auto\""));
    CHECK(note_contains(r, "train_micro_batch_size_per_gpu is \"auto\""));
    CHECK(has(r.unmapped_keys, "zero_optimization.offload_param"));  // parameter offload is not modelled
    CHECK(has(r.unmapped_keys, "scheduler"));
    CHECK(has(r.unmapped_keys, "fp16.loss_scale"));
    CHECK(validate(r.scenario).empty());
}

TEST_CASE("DeepSpeed's batch-size rules") {
    Scenario base;  // 8 GPUs, t = p = 1: DeepSpeed's world size 8
    SECTION("train_batch_size and micro batch: accumulation derived") {
        auto r = import_deepspeed_config(R"({"train_batch_size": 256, "train_micro_batch_size_per_gpu": 4})", base);
        REQUIRE(r.ok());
        CHECK(r.scenario.training.global_batch_size == 256);
        CHECK(r.scenario.training.micro_batch_size == 4);
        CHECK(resolve_layout(r.scenario).grad_accum_steps == 8);  // 256 / (4 × 8)
    }
    SECTION("train_batch_size and accumulation: micro batch derived") {
        auto r = import_deepspeed_config(R"({"train_batch_size": 256, "gradient_accumulation_steps": 4})", base);
        REQUIRE(r.ok());
        CHECK(r.scenario.training.micro_batch_size == 8);  // 256 / (4 × 8)
        CHECK(validate(r.scenario).empty());
    }
    SECTION("train_batch_size alone: accumulation 1") {
        auto r = import_deepspeed_config(R"({"train_batch_size": 64})", base);
        REQUIRE(r.ok());
        CHECK(r.scenario.training.grad_accum_steps == 1);
        CHECK(r.scenario.training.micro_batch_size == 8);
        CHECK(validate(r.scenario).empty());
    }
    SECTION("micro batch alone: accumulation 1") {
        auto r = import_deepspeed_config(R"({"train_micro_batch_size_per_gpu": 3})", base);
        REQUIRE(r.ok());
        CHECK(r.scenario.training.grad_accum_steps == 1);
        CHECK(resolve_layout(r.scenario).global_batch_size == 24);
    }
    SECTION("all three: kept as given; validate() checks them against the GPU count") {
        auto r = import_deepspeed_config(
            R"({"train_batch_size": 100, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 8})", base);
        REQUIRE(r.ok());
        CHECK_FALSE(validate(r.scenario).empty());  // 100 ≠ 4 × 8 × 8
    }
    SECTION("no batch settings: the base's are kept") {
        auto r = import_deepspeed_config(R"({"zero_optimization": {"stage": 1}, "bf16": {"enabled": true}})", base);
        REQUIRE(r.ok());
        CHECK(r.scenario.training.global_batch_size == base.training.global_batch_size);
        CHECK(note_contains(r, "no batch size given"));
    }
}

TEST_CASE("precision, offload and ZeRO variants") {
    CHECK(import_deepspeed_config(R"({"fp16": {"enabled": true}})").scenario.training.precision == Precision::mixed_fp16);
    CHECK(import_deepspeed_config(R"({"bfloat16": {"enabled": true}})").scenario.training.precision ==
          Precision::mixed_bf16);
    auto fp32 = import_deepspeed_config(R"({"train_batch_size": 8})");
    CHECK(fp32.scenario.training.precision == Precision::fp32);
    CHECK(note_contains(fp32, "DeepSpeed trains in fp32"));
    CHECK(fp32.scenario.parallel.zero_stage == 0);  // no zero_optimization section: stage 0

    auto nvme = import_deepspeed_config(R"({"zero_optimization": {"stage": 3, "stage3_max_live_parameters": 3e8,
        "offload_optimizer": {"device": "nvme", "nvme_path": "/local_nvme"}}})");
    REQUIRE(nvme.ok());
    CHECK(nvme.scenario.parallel.offload_optimizer);
    CHECK(nvme.scenario.parallel.zero3_live_params == 3e8);

    auto legacy = import_deepspeed_config(R"({"zero_optimization": {"stage": 2, "cpu_offload": true}})");
    REQUIRE(legacy.ok());
    CHECK(legacy.scenario.parallel.offload_optimizer);
    CHECK(legacy.scenario.parallel.zero_stage == 2);

    Scenario offloaded;
    offloaded.parallel.offload_optimizer = true;
    auto none = import_deepspeed_config(R"({"zero_optimization": {"stage": 2, "offload_optimizer": {"device": "none"}}})",
                                        offloaded);
    CHECK_FALSE(none.scenario.parallel.offload_optimizer);
    // No zero_optimization section at all: DeepSpeed's stage 0 without offload.
    auto plain = import_deepspeed_config(R"({"bf16": {"enabled": true}})", offloaded);
    CHECK_FALSE(plain.scenario.parallel.offload_optimizer);
    CHECK(plain.scenario.parallel.zero_stage == 0);

    auto old_bool = import_deepspeed_config(R"({"zero_optimization": true})");
    CHECK(old_bool.scenario.parallel.zero_stage == 1);

    auto ac = import_deepspeed_config(R"({"activation_checkpointing": {"partition_activations": true,
        "cpu_checkpointing": false, "number_checkpoints": 4}})");
    CHECK(ac.scenario.parallel.partition_activations);
    CHECK(has(ac.unmapped_keys, "activation_checkpointing.cpu_checkpointing"));

    auto grad32 = import_deepspeed_config(R"({"data_types": {"grad_accum_dtype": "fp32"}, "bf16": {"enabled": true}})");
    CHECK(grad32.scenario.training.grad_dtype == GradDtype::fp32);

    auto lamb = import_deepspeed_config(R"({"optimizer": {"type": "Lamb"}})");
    CHECK(lamb.ok());
    CHECK(has(lamb.unmapped_keys, "optimizer.type"));
    CHECK(note_contains(lamb, "\"Lamb\" is not modelled"));
}

TEST_CASE("errors name the DeepSpeed key") {
    CHECK(has_issue(import_deepspeed_config(R"({"zero_optimization": {"stage": 4}})"), "zero_optimization.stage",
                    "from 0 to 3"));
    CHECK(has_issue(import_deepspeed_config(R"({"zero_optimization": {"stage": "3"}})"), "zero_optimization.stage",
                    "must be an integer"));
    CHECK(has_issue(import_deepspeed_config(R"({"zero_optimization": 3})"), "zero_optimization", "must be an object"));
    CHECK(has_issue(import_deepspeed_config(R"({"bf16": {"enabled": true}, "fp16": {"enabled": true}})"), "bf16.enabled",
                    "both true"));
    CHECK(has_issue(import_deepspeed_config(R"({"fp16": {"enabled": 1}})"), "fp16.enabled", "true or false"));
    CHECK(has_issue(import_deepspeed_config(R"({"train_micro_batch_size_per_gpu": 0})"),
                    "train_micro_batch_size_per_gpu", "from 1"));
    CHECK(has_issue(import_deepspeed_config(R"({"train_batch_size": 2.5})"), "train_batch_size", "integer"));
    CHECK(has_issue(import_deepspeed_config(R"({"zero_optimization": {"offload_optimizer": {"device": "gpu"}}})"),
                    "zero_optimization.offload_optimizer.device", "\"cpu\", \"nvme\" or \"none\""));
    CHECK(has_issue(import_deepspeed_config(R"({"zero_optimization": {"stage": 3, "stage3_max_live_parameters": -1}})"),
                    "zero_optimization.stage3_max_live_parameters"));
    CHECK(has_issue(import_deepspeed_config("{\"a\": }"), "json", "syntax error"));
    CHECK(has_issue(import_deepspeed_config("null"), "json", "must be a JSON object"));
}

TEST_CASE("HF config + DeepSpeed config: Llama-3-8B, ZeRO-3 on 8 × H100") {
    const char* llama3_8b = R"({"architectures": ["LlamaForCausalLM"], "attention_bias": false, "hidden_size": 4096,
        "intermediate_size": 14336, "max_position_embeddings": 8192, "model_type": "llama", "num_attention_heads": 32,
        "num_hidden_layers": 32, "num_key_value_heads": 8, "tie_word_embeddings": false, "vocab_size": 128256})";
    Scenario base;
    REQUIRE(apply_gpu_preset(base, "H100-SXM"));
    auto model = codec::import_hf_config(llama3_8b, base);
    REQUIRE(model.ok());
    auto both = import_deepspeed_config(R"({"bf16": {"enabled": true}, "zero_optimization": {"stage": 3},
        "train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": 16})", model.scenario);
    REQUIRE(both.ok());
    auto ev = evaluate(both.scenario);
    REQUIRE(ev.ok());
    CHECK(ev.estimate.parameters.total == 8030261248.0);  // Meta-Llama-3-8B model card
    CHECK(both.scenario.model.name == "Llama-3-8B");
    CHECK(both.scenario.hardware.gpu == "H100-SXM");
    // ZeRO-3 over 8 GPUs: 16 bytes per parameter (2 + 2 + 12, mixed AdamW; Rajbhandari et al. 2019) / 8,
    // plus the 1e9 live parameters in 2-byte weights.
    double states = ev.estimate.memory_per_gpu_bytes.weights + ev.estimate.memory_per_gpu_bytes.gradients +
                    ev.estimate.memory_per_gpu_bytes.optimizer;
    CHECK_THAT(states, Catch::Matchers::WithinRel(16.0 * 8030261248.0 / 8 + 2.0 * 1e9, 1e-9));
}
