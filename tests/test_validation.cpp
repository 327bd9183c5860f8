// Every validation rule: a bad scenario yields issues naming the field; never NaN or a crash.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <string>

#include "core/estimate.hpp"
#include "core/fields.hpp"
#include "core/model/presets.hpp"

using namespace vramcalc;

namespace {

bool names(const std::vector<ValidationIssue>& issues, const std::string& field) {
    for (const auto& i : issues)
        if (i.field == field && !i.message.empty()) return true;
    return false;
}

void expect_rejected(const std::string& field, const std::function<void(Scenario&)>& edit) {
    Scenario s;
    edit(s);
    auto issues = validate(s);
    INFO("field " << field);
    CHECK(names(issues, field));
    Evaluation ev = evaluate(s);
    CHECK_FALSE(ev.ok());
}

}  // namespace

TEST_CASE("the default scenario and every field table entry are valid") {
    CHECK(validate(Scenario{}).empty());
    for (const auto& f : scenario_fields()) {
        INFO(f.path);
        CHECK(std::string(f.help).size() > 5);
        CHECK(std::string(f.url_key).size() > 0);
        CHECK((f.kind == FieldKind::text ? f.get_text != nullptr : f.get != nullptr));
    }
}

TEST_CASE("model rules") {
    expect_rejected("model.layers", [](Scenario& s) { s.model.layers = 0; });
    expect_rejected("model.layers", [](Scenario& s) { s.model.layers = -3; });
    expect_rejected("model.hidden_size", [](Scenario& s) { s.model.hidden_size = 0; });
    expect_rejected("model.hidden_size", [](Scenario& s) { s.model.hidden_size = 4100; });  // 4100 % 32 != 0
    expect_rejected("model.num_heads", [](Scenario& s) { s.model.num_heads = 0; });
    expect_rejected("model.num_kv_heads", [](Scenario& s) { s.model.num_kv_heads = 5; });  // 32 % 5
    expect_rejected("model.num_kv_heads", [](Scenario& s) { s.model.num_kv_heads = -1; });
    expect_rejected("model.head_dim", [](Scenario& s) { s.model.head_dim = -1; });
    expect_rejected("model.ffn_hidden_size", [](Scenario& s) { s.model.ffn_hidden_size = -1; });
    expect_rejected("model.vocab_size", [](Scenario& s) { s.model.vocab_size = 0; });
    expect_rejected("model.max_position_embeddings", [](Scenario& s) { s.model.max_position_embeddings = 0; });
    expect_rejected("model.num_experts", [](Scenario& s) { s.model.num_experts = 0; });
    expect_rejected("model.experts_per_token", [](Scenario& s) { s.model.experts_per_token = 2; });  // > E = 1
    expect_rejected("model.params_override", [](Scenario& s) { s.model.params_override = -1; });
    expect_rejected("model.params_override",
                    [](Scenario& s) { s.model.params_override = std::numeric_limits<double>::quiet_NaN(); });
}

TEST_CASE("head_dim lifts the divisibility rule") {
    Scenario s;
    s.model.hidden_size = 3072;
    s.model.num_heads = 24;  // divides; now one that does not, with an explicit head dim
    s.model.hidden_size = 3000;
    s.model.head_dim = 128;
    CHECK(validate(s).empty());
}

TEST_CASE("training rules") {
    expect_rejected("training.seq_len", [](Scenario& s) { s.training.seq_len = 0; });
    expect_rejected("training.seq_len", [](Scenario& s) { s.training.seq_len = 4096; });  // > 2048 learned positions
    expect_rejected("training.micro_batch_size", [](Scenario& s) { s.training.micro_batch_size = 0; });
    expect_rejected("training.global_batch_size", [](Scenario& s) { s.training.global_batch_size = -1; });
    expect_rejected("training.global_batch_size", [](Scenario& s) { s.training.global_batch_size = 12; });  // % 8
    expect_rejected("training.global_batch_size", [](Scenario& s) {
        s.training.micro_batch_size = 4;
        s.training.global_batch_size = 16;  // 4·8 = 32 > 16: micro-batch larger than global batch allows
    });
    expect_rejected("training.global_batch_size", [](Scenario& s) {
        s.training.global_batch_size = 0;
        s.training.grad_accum_steps = 0;
    });
    expect_rejected("training.grad_accum_steps", [](Scenario& s) { s.training.grad_accum_steps = 3; });  // 1024/8=128
    expect_rejected("training.tokens", [](Scenario& s) { s.training.tokens = 0; });
    expect_rejected("training.tokens", [](Scenario& s) { s.training.tokens = std::numeric_limits<double>::infinity(); });
}

TEST_CASE("parallel rules") {
    expect_rejected("parallel.num_gpus", [](Scenario& s) { s.parallel.num_gpus = 0; });
    expect_rejected("parallel.num_gpus", [](Scenario& s) { s.parallel.tensor = 3; });  // 8 % 3
    expect_rejected("parallel.tensor", [](Scenario& s) { s.parallel.tensor = 0; });
    expect_rejected("parallel.tensor", [](Scenario& s) {
        s.parallel.num_gpus = 64;
        s.parallel.tensor = 64;  // does not divide 32 heads
        s.training.global_batch_size = 1;
    });
    expect_rejected("parallel.tensor", [](Scenario& s) {
        s.model.num_kv_heads = 2;
        s.parallel.tensor = 4;  // kv heads 2 % 4
        s.training.global_batch_size = 1024;
    });
    expect_rejected("parallel.pipeline", [](Scenario& s) { s.parallel.pipeline = 0; });
    expect_rejected("parallel.pipeline", [](Scenario& s) {
        s.parallel.num_gpus = 64;
        s.parallel.pipeline = 64;  // > 32 layers
    });
    expect_rejected("parallel.zero_stage", [](Scenario& s) { s.parallel.zero_stage = 4; });
    expect_rejected("parallel.zero_stage", [](Scenario& s) { s.parallel.zero_stage = -1; });
    expect_rejected("parallel.zero3_live_params", [](Scenario& s) { s.parallel.zero3_live_params = -5; });
    // Megatron-LM arguments.py: --tp-comm-overlap needs sequence parallelism (and so t > 1).
    expect_rejected("parallel.tp_comm_overlap", [](Scenario& s) { s.parallel.tp_comm_overlap = true; });  // t = 1
    expect_rejected("parallel.tp_comm_overlap", [](Scenario& s) {
        s.parallel.tensor = 2;
        s.parallel.tp_comm_overlap = true;  // without sequence_parallel
    });
    expect_rejected("parallel.expert", [](Scenario& s) { s.parallel.expert = 2; });  // E = 1
    expect_rejected("parallel.expert", [](Scenario& s) {
        s.model.num_experts = 16;
        s.model.experts_per_token = 2;
        s.parallel.expert = 16;  // DP = 8
    });
}

TEST_CASE("hardware rules") {
    expect_rejected("hardware.memory_gib", [](Scenario& s) { s.hardware.memory_gib = 0; });
    expect_rejected("hardware.peak_tflops", [](Scenario& s) { s.hardware.peak_tflops = -1; });
    expect_rejected("hardware.achieved_tflops", [](Scenario& s) { s.hardware.achieved_tflops = 400; });  // > peak
    expect_rejected("hardware.achieved_tflops", [](Scenario& s) { s.hardware.achieved_tflops = -1; });
    expect_rejected("hardware.achieved_tflops", [](Scenario& s) {
        s.hardware.achieved_tflops = 0;
        s.hardware.mfu = 0;
    });
    expect_rejected("hardware.mfu", [](Scenario& s) { s.hardware.mfu = 1.5; });
    expect_rejected("hardware.price_per_gpu_hour", [](Scenario& s) { s.hardware.price_per_gpu_hour = -1; });
    expect_rejected("hardware.reserved_gib", [](Scenario& s) { s.hardware.reserved_gib = 80; });
}

TEST_CASE("messages name the rule") {
    Scenario s;
    s.model.hidden_size = 4100;
    auto issues = validate(s);
    REQUIRE(issues.size() == 1);
    CHECK(issues[0].field == "model.hidden_size");
    CHECK(issues[0].message.find("divisible by model.num_heads") != std::string::npos);
}

TEST_CASE("extreme valid scenarios stay finite") {
    Scenario s;
    s.model.layers = 100000;
    s.model.hidden_size = 10000000;
    s.model.num_heads = 1;
    s.model.vocab_size = 10000000;
    s.model.position_embedding = PositionEmbedding::rope;
    s.training.seq_len = 100000000;
    s.training.micro_batch_size = 1000000000;
    s.training.global_batch_size = 0;
    s.training.grad_accum_steps = 1;
    s.parallel.num_gpus = 1;
    s.training.tokens = 1e18;
    REQUIRE(validate(s).empty());
    Estimate e = estimate(s);
    CHECK(std::isfinite(e.memory_per_gpu_bytes.total));
    CHECK(std::isfinite(e.compute.total_flops));
    CHECK(std::isfinite(e.compute.seconds));
}

TEST_CASE("\"0 = auto\" is a property of the field, and 0 is a valid value of each such field") {
    std::map<std::string, std::string> zero_means;
    for (const auto& f : scenario_fields())
        if (f.zero_means) zero_means[f.path] = f.zero_means;
    const std::map<std::string, std::string> expected = {
        {"model.num_kv_heads", "auto"},          {"model.head_dim", "auto"},
        {"model.ffn_hidden_size", "auto"},       {"training.global_batch_size", "auto"},
        {"training.grad_accum_steps", "auto"},   {"parallel.zero3_live_params", "not counted"},
        {"hardware.achieved_tflops", "from MFU"},   {"model.moe_ffn_hidden_size", "auto"},
        {"training.trainable_layers", "all"},
        {"parallel.shard_group", "all"},  // HSDP (issue 25): 0 = shard over every DP·cp rank
        // Attention variants and hybrid layers (issue 24).
        {"model.kv_lora_rank", "off"},           {"model.q_lora_rank", "off"},
        {"model.v_head_dim", "auto"},            {"model.sliding_window", "off"},
        {"model.global_attention_interval", "none"}, {"model.full_attention_interval", "off"},
        {"inference.gpu_memory_utilization", "engine default"}, {"inference.max_batched_tokens", "engine default"},
        {"inference.weight_bytes_override", "from the format"},  // a GGUF import sets the file's bytes
    };
    CHECK(zero_means == expected);
    for (const auto& [path, meaning] : expected) {
        INFO(path);
        const FieldSpec* f = find_field_by_path(path);
        CHECK(std::string(f->help).find("0 = ") != std::string::npos);  // the help text says it too
        Scenario s;
        s.hardware.mfu = 0.5;                       // so achieved_tflops = 0 is valid
        s.training.grad_accum_steps = 128;          // so global_batch_size = 0 is valid
        f->set(s, 0.0);
        if (path == "training.grad_accum_steps") s.training.global_batch_size = 1024;
        CHECK(validate(s).empty());
    }
}

TEST_CASE("throughput-model rules: interleave, node size, bandwidths") {
    expect_rejected("parallel.interleave", [](Scenario& s) { s.parallel.interleave = 0; });
    expect_rejected("parallel.interleave", [](Scenario& s) { s.parallel.interleave = 2; });  // p = 1
    expect_rejected("parallel.interleave", [](Scenario& s) {  // 32 layers / 4 stages = 8, not a multiple of 3
        s.parallel.pipeline = 4;
        s.parallel.interleave = 3;
    });
    expect_rejected("hardware.gpus_per_node", [](Scenario& s) { s.hardware.gpus_per_node = 0; });
    expect_rejected("hardware.intra_node_gbps", [](Scenario& s) { s.hardware.intra_node_gbps = 0; });
    expect_rejected("hardware.inter_node_gbps", [](Scenario& s) { s.hardware.inter_node_gbps = -1; });
    expect_rejected("hardware.memory_bandwidth_gbps",
                    [](Scenario& s) { s.hardware.memory_bandwidth_gbps = std::numeric_limits<double>::infinity(); });
    Scenario ok;
    ok.parallel.pipeline = 4;
    ok.parallel.interleave = 2;  // 8 layers per stage in 2 chunks of 4
    CHECK(validate(ok).empty());
    auto issues = [] {
        Scenario s;
        s.parallel.pipeline = 4;
        s.parallel.interleave = 3;
        return validate(s);
    }();
    REQUIRE(issues.size() == 1);
    CHECK(issues[0].message.find("32 layers / 4 stages = 8 layers per stage") != std::string::npos);
    // The predicted model needs no achieved rate; the fixed one does.
    Scenario predicted;
    predicted.hardware.achieved_tflops = 0;
    predicted.hardware.mfu = 0;
    CHECK(names(validate(predicted), "hardware.achieved_tflops"));
    predicted.hardware.throughput_model = ThroughputModel::predicted;
    CHECK(validate(predicted).empty());
}

TEST_CASE("A sequence beyond the model's max_position_embeddings is a warning with RoPE") {
    // meta-llama/Llama-2-7b-hf config.json: max_position_embeddings 4096, rope_theta 10000.
    Scenario s;
    REQUIRE(apply_model_preset(s, "llama-2-7b"));
    REQUIRE(s.model.position_embedding == PositionEmbedding::rope);
    REQUIRE(s.model.max_position_embeddings == 4096);
    s.training.seq_len = 4096;
    REQUIRE(validate(s).empty());
    CHECK_FALSE(estimate(s).warnings.has(Warning::sequence_beyond_positions));
    s.training.seq_len = 8192;
    REQUIRE(validate(s).empty());  // RoPE sets no hard limit: an estimate, with the warning
    CHECK(estimate(s).warnings.has(Warning::sequence_beyond_positions));
    CHECK(std::string(warning_id(Warning::sequence_beyond_positions)) == "sequence_beyond_positions");
}
