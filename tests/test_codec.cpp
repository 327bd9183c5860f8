// JSON and link codecs: round trips, pinned links, errors that name the field, hostile input.
#include <catch2/catch.hpp>

#include "codec/codec.hpp"
#include "codec/typed.hpp"
#include "core/fields.hpp"
#include "core/model/presets.hpp"

using namespace vramcalc;
using nlohmann::json;

namespace {

bool same_scenario(const Scenario& a, const Scenario& b) {
    const FieldSpec* f = first_difference(a, b);
    if (f) UNSCOPED_INFO("differs: " << f->path);
    return f == nullptr;
}

bool mentions(const std::vector<ValidationIssue>& issues, const std::string& field) {
    for (const auto& i : issues)
        if (i.field == field) return true;
    return false;
}

std::vector<Scenario> sample_scenarios() {
    std::vector<Scenario> out(1);
    Scenario llama;
    apply_model_preset(llama, "llama-3-8b");
    apply_gpu_preset(llama, "H100-SXM");
    llama.training.seq_len = 8192;
    llama.parallel.zero_stage = 3;
    llama.parallel.zero3_live_params = 1e9;
    llama.training.flash_attention = true;
    llama.training.dropout = false;
    out.push_back(llama);
    Scenario edited = llama;  // a preset with edits
    edited.model.layers = 40;
    edited.hardware.memory_gib = 70.5;
    edited.training.tokens = 15.6e12;
    out.push_back(edited);
    Scenario custom;
    custom.model.name = "my model / v2 & co";
    custom.model.mlp = MlpKind::swiglu;
    custom.model.num_experts = 8;
    custom.model.experts_per_token = 2;
    custom.parallel.num_gpus = 64;
    custom.parallel.tensor = 4;
    custom.parallel.pipeline = 2;
    custom.parallel.expert = 8;
    custom.parallel.sequence_parallel = true;
    custom.training.global_batch_size = 0;
    custom.training.grad_accum_steps = 7;
    custom.training.recompute = Recompute::selective;
    custom.hardware.gpu = "my cluster's GPU";
    custom.hardware.price_per_gpu_hour = 0.1 + 0.2;  // not exactly representable in short decimal
    out.push_back(custom);
    return out;
}

}  // namespace

TEST_CASE("JSON round trip: decode(encode(x)) == x") {
    for (const auto& s : sample_scenarios()) {
        REQUIRE(validate(s).empty());
        auto decoded = codec::scenario_from_json(codec::scenario_to_json(s));
        CHECK(decoded.ok());
        CHECK(same_scenario(decoded.scenario, s));
    }
}

TEST_CASE("JSON: missing keys keep defaults; presets then overrides") {
    auto r = codec::scenario_from_json_text(R"({"model": {"preset": "llama-2-7b", "layers": 16}, "hardware": {"gpu": "H100-SXM"}})");
    REQUIRE(r.ok());
    CHECK(r.scenario.model.hidden_size == 4096);
    CHECK(r.scenario.model.layers == 16);
    CHECK(r.scenario.hardware.memory_gib == find_gpu_preset("H100-SXM")->memory_gib);
    CHECK(r.scenario.training.seq_len == Scenario{}.training.seq_len);
    auto by_name = codec::scenario_from_json_text(R"({"model": "mistral-7b"})");
    REQUIRE(by_name.ok());
    CHECK(by_name.scenario.model.num_kv_heads == 8);
}

TEST_CASE("JSON errors name the field and the rule") {
    auto check = [](const char* text, const char* field, const char* words) {
        auto r = codec::scenario_from_json_text(text);
        INFO(text);
        REQUIRE_FALSE(r.ok());
        bool found = false;
        for (const auto& i : r.issues)
            found = found || (i.field == field && i.message.find(words) != std::string::npos);
        CHECK(found);
    };
    check(R"({"model": {"layers": "eighty"}})", "model.layers", "must be an integer");
    check(R"({"model": {"layers": 80.5}})", "model.layers", "must be an integer");
    check(R"({"model": {"hidden_size": 4100}})", "model.hidden_size", "divisible by model.num_heads");
    check(R"({"model": {"hidden": 4096}})", "model.hidden", "unknown field");
    check(R"({"modle": {}})", "modle", "unknown section");
    check(R"({"training": {"precision": "fp8"}})", "training.precision", "must be one of");
    check(R"({"training": {"dropout": 1}})", "training.dropout", "true or false");
    check(R"({"model": {"layers": 1e300}})", "model.layers", "out of range");
    check(R"({"model": {"preset": "gpt-9"}})", "model.preset", "unknown model preset");
    check(R"({"parallel": []})", "parallel", "must be an object");
    check(R"([1, 2])", "scenario", "JSON object");
    check(R"({"model": {"layers": 80)", "json", "not valid JSON");
    check("", "json", "not valid JSON");
}

TEST_CASE("link round trip: decode(encode(x)) == x") {
    for (const auto& s : sample_scenarios()) {
        std::string link = codec::encode_link(s);
        INFO(link);
        auto decoded = codec::decode_link(link);
        CHECK(decoded.ok());
        CHECK(same_scenario(decoded.scenario, s));
        CHECK(link.rfind("v=3", 0) == 0);  // new links are written in the current version
    }
    CHECK(codec::encode_link(Scenario{}) == "v=3");
}

TEST_CASE("link holds only non-default fields and names presets") {
    Scenario s;
    s.training.micro_batch_size = 4;
    s.parallel.zero_stage = 3;
    CHECK(codec::encode_link(s) == "v=3&b=4&z=3");
    Scenario llama;
    apply_model_preset(llama, "llama-3-8b");
    apply_gpu_preset(llama, "H100-SXM");
    llama.model.layers = 16;
    CHECK(codec::encode_link(llama) == "v=3&mp=llama-3-8b&gpu=H100-SXM&L=16");
}

TEST_CASE("pinned links keep opening identically") {
    // Written by hand from their meaning; every later version must decode them the same way.
    {
        auto r = codec::decode_link("#v=1&mp=llama-2-70b&gpu=H100-SXM&N=64&t=8&p=2&z=1&s=4096&b=1&B=512&rc=selective&sp=1");
        REQUIRE(r.ok());
        const auto& s = r.scenario;
        CHECK(s.model.name == "Llama-2-70B");
        CHECK(s.model.layers == 80);
        CHECK(s.model.num_kv_heads == 8);
        CHECK(s.hardware.gpu == "H100-SXM");
        CHECK(s.parallel.num_gpus == 64);
        CHECK(s.parallel.tensor == 8);
        CHECK(s.parallel.pipeline == 2);
        CHECK(s.training.seq_len == 4096);
        CHECK(s.training.global_batch_size == 512);
        CHECK(s.training.recompute == Recompute::selective);
        CHECK(s.parallel.sequence_parallel);
    }
    {
        auto r = codec::decode_link("v=1&L=80&h=8192&a=64&V=32000&maxpos=2048&N=1&z=0&B=0&ga=1");
        REQUIRE(r.ok());
        // The Llama-65B activation example of "LLM parameters, VRAM, TFLOPs? Training part 5": 80·(34·sbh + 5·as²b).
        CHECK(estimate(r.scenario).activations.transformer_layers_bytes == 153008209920.0);
    }
    {
        auto r = codec::decode_link("v=1&name=My%20MoE&mlp=swiglu&norm=rmsnorm&bias=0&E=8&k=2&prec=fp32&opt=sgd_momentum&mem=40&price=1.25");
        REQUIRE(r.ok());
        CHECK(r.scenario.model.name == "My MoE");
        CHECK(r.scenario.model.num_experts == 8);
        CHECK(r.scenario.training.precision == Precision::fp32);
        CHECK(r.scenario.training.optimizer == Optimizer::sgd_momentum);
        CHECK(r.scenario.hardware.memory_gib == 40);
        CHECK(r.scenario.hardware.price_per_gpu_hour == 1.25);
    }
}

TEST_CASE("hostile links open with defaults for the bad fields and say which") {
    auto r = codec::decode_link("v=1&L=abc&zz=1&h=4100&b=1e999&prec=fp8&%ZZ=1&t=99999999999999999999&fa");
    CHECK(validate(r.scenario).empty());
    CHECK(mentions(r.issues, "model.layers"));
    CHECK(mentions(r.issues, "zz"));
    CHECK(mentions(r.issues, "model.hidden_size"));
    CHECK(mentions(r.issues, "training.micro_batch_size"));
    CHECK(mentions(r.issues, "training.precision"));
    CHECK(mentions(r.issues, "parallel.tensor"));
    CHECK(mentions(r.issues, "fa"));
    CHECK(r.scenario.model.layers == Scenario{}.model.layers);

    std::string huge(100000, 'a');
    auto long_link = codec::decode_link("v=1&" + huge);
    CHECK(validate(long_link.scenario).empty());
    CHECK(mentions(long_link.issues, "link"));

    auto script = codec::decode_link("v=1&name=%3Cscript%3Ealert(1)%3C%2Fscript%3E&gpu=%3Cimg%3E&mem=40");
    CHECK(script.ok());  // text is only a label; front-ends never interpret it
    CHECK(script.scenario.model.name == "<script>alert(1)</script>");
    CHECK(script.scenario.hardware.gpu == "<img>");

    auto truncated = codec::decode_link("v=1&L=8");  // a cut link still decodes what it has
    CHECK(truncated.ok());
    CHECK(truncated.scenario.model.layers == 8);

    auto future = codec::decode_link("v=9&L=8");
    CHECK(mentions(future.issues, "v"));
    CHECK(future.scenario.model.layers == 8);

    // Rules broken by a combination reset the named fields.
    auto combo = codec::decode_link("v=1&N=8&t=3");
    CHECK(validate(combo.scenario).empty());
    CHECK_FALSE(combo.ok());
}

TEST_CASE("estimate JSON has the stable field names") {
    Scenario s;
    json out = codec::evaluation_to_json(s, evaluate(s));
    for (const char* key : {"total", "active"}) CHECK(out["parameters"].contains(key));
    for (const char* key : {"weights", "gradients", "optimizer", "activations", "overhead", "total"})
        CHECK(out["memory_per_gpu_bytes"][key].is_number());
    for (const char* key : {"total_flops", "seconds", "gpu_hours", "tflop_hours", "pflop_days", "cost"})
        CHECK(out["compute"][key].is_number());
    CHECK(out["fits"].is_boolean());
    CHECK(out["warnings"].is_array());
    CHECK(out["errors"].empty());
    CHECK(out["parameters"]["total"].get<double>() == 6658404352.0);

    s.model.hidden_size = 4100;
    json bad = codec::evaluation_to_json(s, evaluate(s));
    REQUIRE(bad["errors"].size() == 1);
    CHECK(bad["errors"][0]["field"] == "model.hidden_size");
    CHECK_FALSE(bad.contains("memory_per_gpu_bytes"));
}

TEST_CASE("numbers as people type them: separators and K/M/B/T suffixes") {
    CHECK(codec::typed_number_text("5120") == "5120");
    CHECK(codec::typed_number_text("4,096") == "4096");
    CHECK(codec::typed_number_text("300 000 000") == "300000000");
    CHECK(codec::typed_number_text("1_000") == "1000");
    CHECK(codec::typed_number_text("12\xE2\x80\xAF" "288") == "12288");
    CHECK(codec::typed_number_text("1.5K") == "1500");
    CHECK(codec::typed_number_text("1.1k") == "1100");
    CHECK(codec::typed_number_text("300B") == "3e11");
    // Context lengths are powers of two: Llama 3.1's "128K" context is 131,072 positions
    // (max_position_embeddings in meta-llama/Llama-3.1-8B's config.json).
    CHECK(codec::typed_number_text("128K", true) == "131072");
    CHECK(codec::typed_number_text("32k", true) == "32768");
    CHECK(codec::typed_number_text("1M", true) == "1048576");
    CHECK(codec::typed_number_text("4096", true) == "4096");
    CHECK(codec::typed_number_text("300 B") == "3e11");
    CHECK(codec::typed_number_text("2T") == "2e12");
    CHECK(codec::typed_number_text("7M") == "7e6");
    CHECK(codec::typed_number_text("0.05") == "0.05");
    // Anything else is left for the field's rule to name.
    CHECK(codec::typed_number_text("abc") == "abc");
    CHECK(codec::typed_number_text("B") == "B");
    CHECK(codec::typed_number_text("1e9") == "1e9");
    Scenario s;
    const FieldSpec* h = find_field_by_path("model.hidden_size");
    CHECK(codec::set_field_from_text(s, *h, codec::typed_number_text("5,120")).empty());
    CHECK(s.model.hidden_size == 5120);
    CHECK_FALSE(codec::set_field_from_text(s, *h, codec::typed_number_text("5.5K4")).empty());
}
