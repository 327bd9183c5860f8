// Import of a .gguf file's header into a serving scenario (docs/imports.md, "GGUF"): the model from
// the metadata (general.architecture, <arch>.block_count, …) and the tensor infos, the weight
// format from general.file_type, the engine llama.cpp, the workload inference; plus the file's
// exact tensor-type mix and tensor bytes. Pure: bytes in (a prefix of the file), nothing read.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "codec/gguf_header.hpp"
#include "codec/import_hf.hpp"

namespace vramcalc::codec {

struct GgufTypeShare {
    std::string type;       // ggml type name ("Q4_K")
    std::size_t tensors = 0;
    double elements = 0;
    double bytes = 0;       // exact: ggml_nbytes summed
};

struct GgufImport {
    ImportResult result;               // scenario, issues ("gguf" or the metadata key), notes
    bool incomplete = false;           // the header continues past the bytes given: read more, call again
    std::uint32_t version = 0;
    std::size_t header_bytes = 0;
    std::size_t tensor_count = 0;
    double parameters = 0;             // Σ elements of the tensor infos
    double tensor_bytes = 0;           // Σ ggml_nbytes: the file's weight bytes
    std::vector<GgufTypeShare> types;  // by bytes, largest first
};

// `bytes`: the first bytes of the file (the page reads at most gguf_first_read, then once
// gguf_second_read if the header is longer).
GgufImport import_gguf(std::span<const std::uint8_t> bytes, const Scenario& base = {});
inline constexpr std::size_t gguf_first_read = 8u << 20;   // 8 MiB: headers with 150 k-token vocabularies are ~6 MiB
inline constexpr std::size_t gguf_second_read = 64u << 20; // 64 MiB: the most any header is read for

}  // namespace vramcalc::codec
