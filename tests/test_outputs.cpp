// The output table (src/core/outputs.cpp): one row per output, every face reads it.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "codec/codec.hpp"
#include "core/explain.hpp"
#include "core/outputs.hpp"
#include "core/model/presets.hpp"

using namespace vramcalc;
using nlohmann::json;

namespace {

// Placeholders "{path}" of a note template.
std::vector<std::string> placeholders(const char* note) {
    std::vector<std::string> out;
    std::string_view text = note;
    for (auto open = text.find('{'); open != std::string_view::npos; open = text.find('{', open + 1)) {
        auto close = text.find('}', open);
        REQUIRE(close != std::string_view::npos);
        out.emplace_back(text.substr(open + 1, close - open - 1));
    }
    return out;
}

std::vector<Scenario> varied_scenarios() {
    std::vector<Scenario> out(1);
    Scenario moe;
    apply_model_preset(moe, "mixtral-8x7b");
    moe.parallel.num_gpus = 16;
    moe.parallel.expert = 8;
    moe.parallel.zero_stage = 3;
    moe.parallel.zero3_live_params = 1e9;
    moe.parallel.offload_optimizer = true;
    moe.training.recompute = Recompute::selective;
    out.push_back(moe);
    Scenario pipeline;
    pipeline.parallel.num_gpus = 64;
    pipeline.parallel.tensor = 4;
    pipeline.parallel.pipeline = 4;
    pipeline.training.recompute = Recompute::full;
    pipeline.hardware.achieved_tflops = 0;
    pipeline.hardware.mfu = 0.4;
    out.push_back(pipeline);
    for (TrainingMethod method : {TrainingMethod::lora, TrainingMethod::qlora, TrainingMethod::freeze}) {
        Scenario tuned;
        apply_model_preset(tuned, "llama-2-7b");
        tuned.training.method = method;
        tuned.training.trainable_layers = 4;
        out.push_back(tuned);
    }
    // Serving (docs/serving.md): each engine once, a MoE model across GPUs, a GGUF partly on the host.
    for (Engine engine : {Engine::vllm, Engine::sglang, Engine::trtllm, Engine::llamacpp, Engine::hf}) {
        Scenario served;
        apply_model_preset(served, "llama-3-8b");
        served.workload = Workload::inference;
        served.inference.engine = engine;
        served.inference.concurrency = 4;
        if (engine == Engine::llamacpp) {
            served.inference.weight_format = WeightFormat::gguf_q4_k_m;
            served.inference.gpu_layers = 20;
        }
        out.push_back(served);
    }
    Scenario served_moe = moe;
    served_moe.workload = Workload::inference;
    served_moe.parallel.tensor = 2;
    served_moe.inference.weight_format = WeightFormat::awq;
    out.push_back(served_moe);
    return out;
}

}  // namespace

TEST_CASE("output paths are unique and every row is complete") {
    std::set<std::string> paths;
    for (const auto& o : outputs()) {
        INFO(o.path);
        CHECK(paths.insert(o.path).second);
        CHECK(*o.label);
        CHECK(*o.short_label);
        CHECK(*o.help);
        CHECK(o.value != nullptr);
        if (o.kind == ValueKind::text) CHECK(o.text != nullptr);
        CHECK(find_output(o.path) == &o);
    }
    for (const auto& c : composite_outputs()) CHECK(paths.insert(c.path).second);
    // A JSON path is either a value or an object, never both.
    for (const auto& p : paths)
        for (const auto& q : paths) CHECK_FALSE(q.rfind(p + ".", 0) == 0);
}

TEST_CASE("note templates name outputs, for every scenario") {
    for (const auto& s : varied_scenarios()) {
        Estimate e = estimate(s);
        for (const auto& o : outputs()) {
            if (!o.note) continue;
            INFO(o.path << ": " << o.note(e));
            for (const auto& p : placeholders(o.note(e))) CHECK(find_output(p) != nullptr);
        }
    }
}

TEST_CASE("explain terms and explain links name outputs") {
    std::set<std::string> explained;
    for (const auto& s : varied_scenarios()) {
        Estimate e = estimate(s);
        for (const auto& t : explain(s, e)) {
            const OutputSpec* o = find_output(t.id);
            INFO(t.id);
            REQUIRE(o != nullptr);
            CHECK(std::string(t.label) == o->label);  // one name everywhere
            CHECK(t.value == o->value(e));
            explained.insert(t.id);
        }
    }
    for (const auto& o : outputs())
        if (o.explain) {
            INFO(o.path << " links to " << o.explain);
            CHECK(explained.count(o.explain) == 1);
        }
}

TEST_CASE("the estimate's JSON holds every output at its path with the struct's value") {
    for (const auto& s : varied_scenarios()) {
        Estimate e = estimate(s);
        json j = codec::estimate_to_json(e);
        for (const auto& o : outputs()) {
            INFO(o.path);
            json::json_pointer pointer("/" + [&] {
                std::string p = o.path;
                for (char& c : p)
                    if (c == '.') c = '/';
                return p;
            }());
            if (!output_applies(o, e.workload)) {  // each estimate holds its workload's outputs only
                CHECK_FALSE(j.contains(pointer));
                continue;
            }
            REQUIRE(j.contains(pointer));
            const json& v = j.at(pointer);
            switch (o.kind) {
                case ValueKind::number: CHECK(v.is_number_float()); CHECK(v.get<double>() == o.value(e)); break;
                case ValueKind::integer: CHECK(v.is_number_integer()); CHECK(v.get<double>() == o.value(e)); break;
                case ValueKind::flag: CHECK(v.is_boolean()); CHECK(v.get<bool>() == (o.value(e) != 0)); break;
                case ValueKind::text: CHECK(v.get<std::string>() == o.text(e)); break;
            }
        }
        // Spot checks that the getters read the right members (JSON names are public API).
        CHECK(j["memory_per_gpu_bytes"]["total"].get<double>() == e.memory_per_gpu_bytes.total);
        CHECK(j["fits"].get<bool>() == e.fits);
        if (e.workload == Workload::inference) {
            CHECK(j["memory_per_gpu_bytes"]["kv_cache"].get<double>() == e.memory_per_gpu_bytes.kv_cache);
            CHECK(j["inference"]["kv_pool_tokens"].get<double>() == e.inference.kv_pool_tokens);
            CHECK(j["performance"]["decode_tokens_per_second"].get<double>() == e.inference.speed.decode_tokens_per_second);
            continue;
        }
        CHECK(j["layout"]["data_parallel"].get<std::int64_t>() == e.layout.data_parallel);
        CHECK(j["layout"]["params_per_gpu"].get<double>() == e.params_per_gpu);
        CHECK(j["host_memory_bytes"]["per_gpu"].get<double>() == e.host_memory_bytes.per_gpu);
        CHECK(j["compute"]["cost"].get<double>() == e.compute.cost);
        CHECK(j["fits"].get<bool>() == e.fits);
    }
}

TEST_CASE("the evaluation JSON has every composite output that is always present") {
    Scenario s;
    json j = codec::evaluation_to_json(s, evaluate(s));
    for (const auto& c : composite_outputs()) CHECK(j.contains(c.path) == c.always);
    json with_explain = codec::evaluation_to_json(s, evaluate(s), {}, true);
    CHECK(with_explain["explain"].size() == explain(s, estimate(s)).size());
}
