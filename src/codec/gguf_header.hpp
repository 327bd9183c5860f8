// The header of a .gguf file (ggml-org/ggml docs/gguf.md, versions 2 and 3): magic, version,
// metadata key-value pairs, tensor infos. Pure: bytes in (a prefix of the file), no I/O. Bounded:
// every count and length is checked against hard limits and against the bytes given before
// anything is allocated, so a header claiming 2^40 tensors or a 2^60-byte string is an error, not
// an allocation. A header that continues past the given prefix is reported as `incomplete` (the
// caller may read more and call again).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace vramcalc::codec {

inline constexpr std::uint64_t gguf_max_tensors = 1 << 20;     // DeepSeek-V3: 1,025 tensors
inline constexpr std::uint64_t gguf_max_kv = 1 << 16;          // real files: < 100 pairs
inline constexpr std::uint64_t gguf_max_string = 1 << 24;      // 16 MiB (chat templates are < 64 KiB)
inline constexpr std::uint64_t gguf_max_array = 1 << 26;       // 64 Mi items (vocabularies: < 1 Mi)
inline constexpr std::size_t gguf_kept_string = 256;           // string values kept (longer ones cut)

// ggml tensor types by id (ggml.h enum ggml_type) with their block sizes (ggml-common.h).
struct GgmlTypeById {
    std::uint32_t id;
    const char* name;
    std::uint32_t block_elements;
    std::uint32_t block_bytes;
};
const GgmlTypeById* ggml_type_by_id(std::uint32_t id);  // nullptr: unknown or removed id

// One metadata value as kept: numbers, booleans, strings (cut to gguf_kept_string), arrays by
// their element type and length only (plus the first numbers, for per-layer lists).
struct GgufValue {
    enum class Kind { integer, unsigned_integer, real, boolean, string, array } kind = Kind::integer;
    std::int64_t i = 0;
    std::uint64_t u = 0;
    double d = 0;
    bool b = false;
    std::string s;
    std::uint32_t array_type = 0;      // GGUF value type of the items
    std::uint64_t array_length = 0;
    std::vector<double> array_numbers; // the first 4096 numeric items
    bool number(double& out) const;    // integer, unsigned or real
};

struct GgufTensor {
    std::string name;
    std::vector<std::uint64_t> dims;  // ne[0] (the row, the block axis) first
    std::uint32_t type = 0;           // ggml type id
    std::uint64_t offset = 0;
    double elements = 0;
    double bytes = 0;                 // ggml_nbytes: ne[0]/block · block bytes · ne[1]·ne[2]·ne[3]
};

struct GgufHeader {
    std::uint32_t version = 0;
    std::map<std::string, GgufValue> metadata;
    std::vector<GgufTensor> tensors;
    std::size_t header_bytes = 0;  // where the tensor infos end
    bool incomplete = false;       // the header continues past the bytes given
    std::string error;             // empty = parsed; else names what and the rule
    bool ok() const { return error.empty() && !incomplete; }
};

GgufHeader parse_gguf_header(std::span<const std::uint8_t> bytes);

}  // namespace vramcalc::codec
