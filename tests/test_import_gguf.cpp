// .gguf header import. Fixtures: tests/data/gguf/*.header.gguf, the headers of the random-weight
// GGUFs bench/inference/write_gguf.py writes (tests/data/gguf/write_headers.py); llama.cpp's own
// numbers for the full files (node-llama-cpp 3.21.1 load logs) are in
// tests/data/inference/llamacpp_cpu_3.21.1.json: tensor_data_bytes, file_bytes, "model params".
#include <catch2/catch.hpp>

#include <cstring>
#include <fstream>
#include <iterator>

#include "codec/gguf_header.hpp"
#include "codec/import_gguf.hpp"
#include "core/estimate.hpp"
#include "core/model/presets.hpp"

using namespace vramcalc;
using codec::import_gguf;

namespace {

std::vector<std::uint8_t> fixture(const char* name) {
    std::ifstream in(std::string(VRAMCALC_SOURCE_DIR) + "/tests/data/gguf/" + name + ".header.gguf", std::ios::binary);
    std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    REQUIRE(!bytes.empty());
    return bytes;
}

codec::GgufImport imported(const char* name) {
    auto r = import_gguf(fixture(name));
    INFO((r.result.issues.empty() ? std::string() : r.result.issues.front().field + ": " + r.result.issues.front().message));
    REQUIRE(r.result.ok());
    return r;
}

// A GGUF writer for hostile headers (little-endian, as the format).
struct Bytes {
    std::vector<std::uint8_t> b;
    template <class T> Bytes& put(T v) {
        std::uint8_t raw[sizeof(T)];
        std::memcpy(raw, &v, sizeof(T));
        b.insert(b.end(), raw, raw + sizeof(T));
        return *this;
    }
    Bytes& str(const std::string& s) {
        put<std::uint64_t>(s.size());
        b.insert(b.end(), s.begin(), s.end());
        return *this;
    }
    Bytes& head(std::uint64_t tensors, std::uint64_t kvs, std::uint32_t version = 3) {
        b.insert(b.end(), {'G', 'G', 'U', 'F'});
        return put(version).put(tensors).put(kvs);
    }
};

std::string error_of(const Bytes& bytes) {
    auto r = import_gguf(bytes.b);
    REQUIRE(!r.result.ok());
    return r.result.issues.front().field + ": " + r.result.issues.front().message;
}

}  // namespace

TEST_CASE("GGUF header: a llama with GQA in Q4_0", "[import][gguf]") {
    auto r = imported("llama-gqa-Q4_0");
    // llama.cpp: tensor data 24,680,448 bytes; file 25,534,400 bytes; model params 43.85 M.
    CHECK(r.tensor_bytes == 24680448.0);
    CHECK(r.parameters == Approx(43.85e6).margin(0.005e6));
    CHECK((r.header_bytes + 31) / 32 * 32 == 25534400 - 24680448);
    CHECK(r.version == 3);
    const auto& m = r.result.scenario.model;
    CHECK(m.layers == 4);
    CHECK(m.hidden_size == 512);
    CHECK(m.num_heads == 8);
    CHECK(m.num_kv_heads == 2);
    CHECK(m.ffn_hidden_size == 1376);
    CHECK(m.vocab_size == 32000);
    CHECK(!m.tied_embeddings);
    CHECK(m.mlp == MlpKind::swiglu);
    CHECK(m.norm == NormKind::rmsnorm);
    CHECK(m.max_position_embeddings == 32768);
    CHECK(r.result.scenario.inference.weight_format == WeightFormat::gguf_q4_0);
    CHECK(r.result.scenario.inference.engine == Engine::llamacpp);
    CHECK(r.result.scenario.workload == Workload::inference);
    // Q4_0: token_embd, output and 7 matrices in each of 4 layers; F32: output_norm and 2 norms per layer.
    REQUIRE(r.types.size() == 2);
    CHECK(r.types[0].type == "Q4_0");
    CHECK(r.types[0].tensors == 30);
    CHECK(r.types[1].type == "F32");
    CHECK(r.types[1].tensors == 9);
    // The architecture as read has the file's parameter count: no override needed.
    CHECK(m.params_override == 0);
    CHECK(evaluate(r.result.scenario).ok());
}

TEST_CASE("GGUF header: Gemma 3 (windows, q/k norms, post-norms, tied) and a MoE", "[import][gguf]") {
    auto gemma = imported("gemma3-Q8_0");
    CHECK(gemma.tensor_bytes == 39301120.0);  // llama.cpp: tensor data 39,301,120 bytes
    CHECK(gemma.parameters == Approx(36.95e6).margin(0.005e6));
    const auto& g = gemma.result.scenario.model;
    CHECK(g.sliding_window == 512);
    CHECK(g.global_attention_interval == 6);
    CHECK(g.qk_norm);
    CHECK(g.head_dim == 256);
    CHECK(g.num_kv_heads == 1);
    CHECK(g.tied_embeddings);
    CHECK(g.norms_per_layer == 4);
    CHECK(gemma.result.scenario.inference.weight_format == WeightFormat::gguf_q8_0);

    auto moe = imported("mixtral-Q4_0");
    CHECK(moe.tensor_bytes == 38979584.0);  // llama.cpp: 38,979,584 bytes, model params 69.22 M
    CHECK(moe.parameters == Approx(69.22e6).margin(0.005e6));
    CHECK(moe.result.scenario.model.num_experts == 4);
    CHECK(moe.result.scenario.model.experts_per_token == 2);
}

TEST_CASE("GGUF header: a prefix shorter than the header asks for more", "[import][gguf]") {
    auto bytes = fixture("llama-gqa-Q4_0");
    bytes.resize(300000);  // inside the tokenizer's token list
    auto r = import_gguf(bytes);
    CHECK(r.incomplete);
    REQUIRE(!r.result.issues.empty());
    CHECK(r.result.issues.front().message.find("continues past the 300,000 bytes read") != std::string::npos);
    bytes.resize(3);
    CHECK(import_gguf(bytes).incomplete);
}

TEST_CASE("GGUF header: hostile headers are clear errors, never an allocation", "[import][gguf][hostile]") {
    const std::uint64_t huge = std::uint64_t(1) << 40;
    CHECK(error_of(Bytes().head(huge, 0)) == "gguf: the header claims 1099511627776 tensors (at most 1048576)");
    CHECK(error_of(Bytes().head(0, huge)) == "gguf: the header claims 1099511627776 metadata pairs (at most 65536)");
    CHECK(error_of(Bytes().head(0, 1).put<std::uint64_t>(std::uint64_t(1) << 60)) ==
          "gguf: a metadata key claims a string of 1152921504606846976 bytes (at most 65535)");
    Bytes long_value = Bytes().head(0, 1).str("general.name").put<std::uint32_t>(8).put<std::uint64_t>(std::uint64_t(1) << 60);
    CHECK(error_of(long_value).find("metadata general.name claims a string of 1152921504606846976 bytes") != std::string::npos);
    Bytes array = Bytes().head(0, 1).str("tokenizer.ggml.tokens").put<std::uint32_t>(9).put<std::uint32_t>(8).put(huge);
    CHECK(error_of(array).find("claims an array of 1099511627776 items") != std::string::npos);
    Bytes nested = Bytes().head(0, 1).str("x").put<std::uint32_t>(9).put<std::uint32_t>(9).put<std::uint64_t>(1)
                       .put<std::uint32_t>(9).put<std::uint64_t>(1).put<std::uint32_t>(9).put<std::uint64_t>(1);
    CHECK(error_of(nested).find("nested deeper than 2 levels") != std::string::npos);
    CHECK(error_of(Bytes().head(0, 1).str("x").put<std::uint32_t>(77)).find("unknown value type 77") != std::string::npos);

    CHECK(error_of(Bytes().head(0, 0, 1)) == "gguf: GGUF version 1 is not read here (versions 2 and 3 are)");
    Bytes wrong;
    wrong.b = {'G', 'G', 'M', 'L', 0, 0, 0, 0};
    CHECK(error_of(wrong).find("not a GGUF file") != std::string::npos);

    auto tensor = [](std::uint32_t dims, std::uint64_t ne0, std::uint32_t type) {
        Bytes t = Bytes().head(1, 0).str("blk.0.attn_q.weight").put(dims);
        for (std::uint32_t k = 0; k < dims && k < 8; ++k) t.put<std::uint64_t>(k == 0 ? ne0 : 32);
        return t.put(type).put<std::uint64_t>(0);
    };
    CHECK(error_of(tensor(5, 32, 0)).find("has 5 dimensions (1 to 4") != std::string::npos);
    CHECK(error_of(tensor(2, 0, 0)).find("has dimension 0") != std::string::npos);
    CHECK(error_of(tensor(2, 48, 12)).find("not a multiple of Q4_K's block of 256") != std::string::npos);
    CHECK(error_of(tensor(2, 32, 4)).find("unknown ggml type 4") != std::string::npos);
    CHECK(error_of(tensor(2, 32, 0)) == "general.architecture: is missing (every GGUF model names its architecture)");

    // Metadata that describes no sane model: named by its key.
    Bytes absurd = Bytes().head(0, 3).str("general.architecture").put<std::uint32_t>(8).str("llama")
                       .str("llama.block_count").put<std::uint32_t>(10).put<std::uint64_t>(huge)
                       .str("llama.embedding_length").put<std::uint32_t>(4).put<std::uint32_t>(4096);
    CHECK(error_of(absurd).find("llama.block_count: must be an integer from 1 to 10,000,000") != std::string::npos);
}

TEST_CASE("GGUF header: tensors holding more parameters than the estimate covers are an error", "[import][gguf][hostile]") {
    // fuzz_import_gguf's find: tensor shapes summing to 1.113e16 parameters (the rules allow at most 1e16).
    std::ifstream in(std::string(VRAMCALC_SOURCE_DIR) +
                         "/tests/fuzz/corpus/fuzz_import_gguf/regression-params-override-above-1e16",
                     std::ios::binary);
    std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    REQUIRE(!bytes.empty());
    auto r = import_gguf(bytes);
    REQUIRE_FALSE(r.result.ok());
    bool named = false;
    for (const auto& i : r.result.issues)
        named = named || (i.field == "gguf" && i.message.find("model.params_override") != std::string::npos);
    CHECK(named);
}

TEST_CASE("GGUF header: the file's exact tensor bytes are the weights (inference.weight_bytes_override)", "[import][gguf]") {
    // llama.cpp's "tensor data" of the three fixtures' full files (node-llama-cpp 3.21.1 load logs,
    // tests/data/inference/llamacpp_cpu_3.21.1.json): the estimate's weights are those bytes, not the recipe's.
    const struct {
        const char* name;
        double tensor_data;
    } files[] = {{"llama-gqa-Q4_0", 24680448.0}, {"gemma3-Q8_0", 39301120.0}, {"mixtral-Q4_0", 38979584.0}};
    for (const auto& f : files) {
        INFO(f.name);
        auto r = imported(f.name);
        CHECK(r.result.scenario.inference.weight_bytes_override == f.tensor_data);
        const Evaluation ev = evaluate(r.result.scenario);
        REQUIRE(ev.ok());
        CHECK(ev.estimate.inference.weights_total_bytes == f.tensor_data);
        // llama.cpp keeps token_embd on the host: the GPU holds the rest (all layers and the output, -ngl = all;
        // a tied model's output is token_embd itself, so Gemma's GPU holds every byte)
        const double embd = double(r.result.scenario.model.vocab_size) * double(r.result.scenario.model.hidden_size);
        CHECK(ev.estimate.inference.memory.weights <= f.tensor_data);
        if (!r.result.scenario.model.tied_embeddings) CHECK(ev.estimate.inference.memory.weights < f.tensor_data);
        CHECK(ev.estimate.inference.memory.weights > f.tensor_data - embd * 4.0);
        bool noted = false;
        for (const auto& n : r.result.notes) noted = noted || n.find("inference.weight_bytes_override") != std::string::npos;
        CHECK(noted);
    }
    // A model chosen afterwards drops the file's bytes (they belong to the file's model).
    auto r = imported("llama-gqa-Q4_0");
    Scenario s = r.result.scenario;
    apply_model_preset(s, "llama-2-7b");
    CHECK(s.inference.weight_bytes_override == 0);
}

TEST_CASE("GGUF header: tensor bytes beyond what the estimate holds are an error naming the field", "[import][gguf][hostile]") {
    // 64 × 2^20 × 2^20 × 87 = 6.1e15 F64 elements (8 bytes each; every dimension under the reader's 2^40): within
    // the 1e16 parameters the rules allow, but 4.9e16 bytes, more than the 4e16 of inference.weight_bytes_override's rule.
    Bytes b = Bytes().head(1, 6).str("general.architecture").put<std::uint32_t>(8).str("llama")
                  .str("general.file_type").put<std::uint32_t>(4).put<std::uint32_t>(0)
                  .str("llama.block_count").put<std::uint32_t>(4).put<std::uint32_t>(1)
                  .str("llama.embedding_length").put<std::uint32_t>(4).put<std::uint32_t>(64)
                  .str("llama.attention.head_count").put<std::uint32_t>(4).put<std::uint32_t>(4)
                  .str("llama.vocab_size").put<std::uint32_t>(4).put<std::uint32_t>(32000);
    b.str("blk.0.ffn_up.weight").put<std::uint32_t>(4).put<std::uint64_t>(64).put<std::uint64_t>(1ull << 20)
        .put<std::uint64_t>(1ull << 20).put<std::uint64_t>(87).put<std::uint32_t>(28).put<std::uint64_t>(0);
    auto r = import_gguf(b.b);
    REQUIRE_FALSE(r.result.ok());
    bool named = false;
    for (const auto& i : r.result.issues)
        named = named || i.message.find("inference.weight_bytes_override") != std::string::npos;
    INFO(r.result.issues.front().field + ": " + r.result.issues.front().message);
    CHECK(named);
}
