// GGUF header reader. Layout (ggml-org/ggml docs/gguf.md; llama.cpp ggml/src/gguf.cpp):
//   "GGUF" | u32 version | u64 tensor_count | u64 kv_count | kv × (string key, u32 type, value)
//   | tensor × (string name, u32 n_dims, u64 ne[n_dims], u32 ggml_type, u64 offset); little-endian;
//   string = u64 length + bytes; array = u32 item type + u64 count + items.
#include "codec/gguf_header.hpp"

#include <array>
#include <cmath>
#include <cstring>

#include "codec/text.hpp"

namespace vramcalc::codec {

namespace {

// ggml.h enum ggml_type (ids 4, 5, 31-33, 36-38 were removed) and ggml-common.h block sizes.
constexpr std::array<GgmlTypeById, 32> ggml_types = {{
    {0, "F32", 1, 4},       {1, "F16", 1, 2},        {2, "Q4_0", 32, 18},     {3, "Q4_1", 32, 20},
    {6, "Q5_0", 32, 22},    {7, "Q5_1", 32, 24},     {8, "Q8_0", 32, 34},     {9, "Q8_1", 32, 36},
    {10, "Q2_K", 256, 84},  {11, "Q3_K", 256, 110},  {12, "Q4_K", 256, 144},  {13, "Q5_K", 256, 176},
    {14, "Q6_K", 256, 210}, {15, "Q8_K", 256, 292},  {16, "IQ2_XXS", 256, 66}, {17, "IQ2_XS", 256, 74},
    {18, "IQ3_XXS", 256, 98}, {19, "IQ1_S", 256, 50}, {20, "IQ4_NL", 32, 18}, {21, "IQ3_S", 256, 110},
    {22, "IQ2_S", 256, 82}, {23, "IQ4_XS", 256, 136}, {24, "I8", 1, 1},       {25, "I16", 1, 2},
    {26, "I32", 1, 4},      {27, "I64", 1, 8},       {28, "F64", 1, 8},       {29, "IQ1_M", 256, 56},
    {30, "BF16", 1, 2},     {34, "TQ1_0", 256, 54},  {35, "TQ2_0", 256, 66},  {39, "MXFP4", 32, 17},
}};

// GGUF metadata value types (gguf.md): 0 u8, 1 i8, 2 u16, 3 i16, 4 u32, 5 i32, 6 f32, 7 bool,
// 8 string, 9 array, 10 u64, 11 i64, 12 f64.
constexpr std::uint32_t type_string = 8, type_array = 9, last_type = 12;
constexpr std::size_t fixed_size[13] = {1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8};

struct Cursor {
    std::span<const std::uint8_t> in;
    GgufHeader& out;
    std::size_t at = 0;

    bool failed() const { return out.incomplete || !out.error.empty(); }
    bool fail(std::string message) {
        if (!failed()) out.error = std::move(message);
        return false;
    }
    bool need(std::uint64_t n) {
        if (failed()) return false;
        if (n > in.size() - at) return out.incomplete = true, false;
        return true;
    }
    template <class T> bool take(T& v) {
        if (!need(sizeof(T))) return false;
        std::memcpy(&v, in.data() + at, sizeof(T));  // GGUF is little-endian, as are x86, arm64 and wasm
        at += sizeof(T);
        return true;
    }
    // A string of at most `limit` bytes (what: how the caller names it); cut to `keep` bytes.
    bool text(std::string& s, std::uint64_t limit, const std::string& what, std::size_t keep = SIZE_MAX) {
        std::uint64_t n = 0;
        if (!take(n)) return false;
        if (n > limit)
            return fail(what + " claims a string of " + std::to_string(n) + " bytes (at most " + std::to_string(limit) + ")");
        if (!need(n)) return false;
        s.assign(reinterpret_cast<const char*>(in.data() + at), std::size_t(std::min<std::uint64_t>(n, keep)));
        at += std::size_t(n);
        return true;
    }
};

bool read_scalar(Cursor& c, std::uint32_t type, GgufValue& v) {
    using K = GgufValue::Kind;
    switch (type) {
        case 0: { std::uint8_t x; if (!c.take(x)) return false; v.kind = K::unsigned_integer; v.u = x; return true; }
        case 1: { std::int8_t x; if (!c.take(x)) return false; v.kind = K::integer; v.i = x; return true; }
        case 2: { std::uint16_t x; if (!c.take(x)) return false; v.kind = K::unsigned_integer; v.u = x; return true; }
        case 3: { std::int16_t x; if (!c.take(x)) return false; v.kind = K::integer; v.i = x; return true; }
        case 4: { std::uint32_t x; if (!c.take(x)) return false; v.kind = K::unsigned_integer; v.u = x; return true; }
        case 5: { std::int32_t x; if (!c.take(x)) return false; v.kind = K::integer; v.i = x; return true; }
        case 6: { float x; if (!c.take(x)) return false; v.kind = K::real; v.d = x; return true; }
        case 7: { std::uint8_t x; if (!c.take(x)) return false; v.kind = K::boolean; v.b = x != 0; return true; }
        case 10: { std::uint64_t x; if (!c.take(x)) return false; v.kind = K::unsigned_integer; v.u = x; return true; }
        case 11: { std::int64_t x; if (!c.take(x)) return false; v.kind = K::integer; v.i = x; return true; }
        case 12: { double x; if (!c.take(x)) return false; v.kind = K::real; v.d = x; return true; }
        default: return false;
    }
}

bool read_value(Cursor& c, std::uint32_t type, GgufValue& v, const std::string& key, int depth);

bool read_array(Cursor& c, GgufValue& v, const std::string& key, int depth) {
    std::uint32_t item = 0;
    std::uint64_t n = 0;
    if (!c.take(item) || !c.take(n)) return false;
    if (item > last_type) return c.fail("metadata " + key + ": array of unknown value type " + std::to_string(item));
    if (item == type_array && depth > 0) return c.fail("metadata " + key + ": arrays nested deeper than 2 levels");
    if (n > gguf_max_array)
        return c.fail("metadata " + key + " claims an array of " + std::to_string(n) + " items (at most " +
                      std::to_string(gguf_max_array) + ")");
    v.kind = GgufValue::Kind::array;
    v.array_type = item;
    v.array_length = n;
    // Fixed-size items: checked and skipped at once (numbers kept up to 4096).
    if (item != type_string && item != type_array) {
        if (!c.need(n * fixed_size[item])) return false;
        for (std::uint64_t k = 0; k < n; ++k) {
            GgufValue x;
            read_scalar(c, item, x);
            double d = 0;
            if (k < 4096 && x.number(d)) v.array_numbers.push_back(d);
        }
        return true;
    }
    for (std::uint64_t k = 0; k < n; ++k) {
        GgufValue x;
        if (!read_value(c, item, x, key, depth + 1)) return false;
    }
    return true;
}

bool read_value(Cursor& c, std::uint32_t type, GgufValue& v, const std::string& key, int depth) {
    if (type == type_string) {
        v.kind = GgufValue::Kind::string;
        return c.text(v.s, gguf_max_string, "metadata " + key, gguf_kept_string);
    }
    if (type == type_array) return read_array(c, v, key, depth);
    if (type > last_type) return c.fail("metadata " + key + " has unknown value type " + std::to_string(type));
    return read_scalar(c, type, v);
}

bool read_tensor(Cursor& c, GgufTensor& t) {
    std::uint32_t n_dims = 0;
    if (!c.text(t.name, 64 * 1024, "a tensor name", 128) || !c.take(n_dims)) return false;
    std::string who = "tensor " + excerpt(t.name, 60);
    if (n_dims < 1 || n_dims > 4) return c.fail(who + " has " + std::to_string(n_dims) + " dimensions (1 to 4, GGML_MAX_DIMS)");
    t.elements = 1;
    for (std::uint32_t k = 0; k < n_dims; ++k) {
        std::uint64_t d = 0;
        if (!c.take(d)) return false;
        if (d < 1 || d > (std::uint64_t(1) << 40))
            return c.fail(who + " has dimension " + std::to_string(d) + " (1 to 2^40)");
        t.dims.push_back(d);
        t.elements *= double(d);
    }
    if (!c.take(t.type) || !c.take(t.offset)) return false;
    const GgmlTypeById* type = ggml_type_by_id(t.type);
    if (!type) return c.fail(who + " has unknown ggml type " + std::to_string(t.type));
    if (t.dims[0] % type->block_elements != 0)
        return c.fail(who + ": its row of " + std::to_string(t.dims[0]) + " is not a multiple of " + type->name +
                      "'s block of " + std::to_string(type->block_elements));
    if (t.elements > 9007199254740992.0) return c.fail(who + " has more than 2^53 elements");
    t.bytes = t.elements / type->block_elements * type->block_bytes;
    return true;
}

}  // namespace

bool GgufValue::number(double& out) const {
    switch (kind) {
        case Kind::integer: out = double(i); return true;
        case Kind::unsigned_integer: out = double(u); return true;
        case Kind::real: out = d; return std::isfinite(d);
        default: return false;
    }
}

const GgmlTypeById* ggml_type_by_id(std::uint32_t id) {
    for (const auto& t : ggml_types)
        if (t.id == id) return &t;
    return nullptr;
}

GgufHeader parse_gguf_header(std::span<const std::uint8_t> bytes) {
    GgufHeader h;
    Cursor c{bytes, h};
    std::uint32_t magic = 0;
    std::uint64_t tensors = 0, kvs = 0;
    if (!c.take(magic)) return h;
    if (magic != 0x46554747u) return c.fail("not a GGUF file: it does not start with the bytes \"GGUF\""), h;
    if (!c.take(h.version)) return h;
    if (h.version != 2 && h.version != 3)
        return c.fail("GGUF version " + std::to_string(h.version) + " is not read here (versions 2 and 3 are)"), h;
    if (!c.take(tensors) || !c.take(kvs)) return h;
    if (tensors > gguf_max_tensors)
        return c.fail("the header claims " + std::to_string(tensors) + " tensors (at most " + std::to_string(gguf_max_tensors) + ")"), h;
    if (kvs > gguf_max_kv)
        return c.fail("the header claims " + std::to_string(kvs) + " metadata pairs (at most " + std::to_string(gguf_max_kv) + ")"), h;
    for (std::uint64_t k = 0; k < kvs; ++k) {
        std::string key;
        std::uint32_t type = 0;
        GgufValue v;
        if (!c.text(key, 65535, "a metadata key") || !c.take(type)) return h;
        key = excerpt(key, 120);
        if (!read_value(c, type, v, key, 0)) {
            if (!c.failed()) c.fail("metadata " + key + " could not be read");
            return h;
        }
        h.metadata[key] = std::move(v);
    }
    // At least 32 bytes a tensor info (name length, n_dims, one dimension, type, offset): a claim
    // the bytes given cannot hold is only trusted as far as they go.
    h.tensors.reserve(std::size_t(std::min<std::uint64_t>(tensors, (bytes.size() - c.at) / 32 + 1)));
    for (std::uint64_t k = 0; k < tensors; ++k) {
        GgufTensor t;
        if (!read_tensor(c, t)) return h;
        h.tensors.push_back(std::move(t));
    }
    h.header_bytes = c.at;
    return h;
}

}  // namespace vramcalc::codec
