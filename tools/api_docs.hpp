// What the JS API's typings, its estimate builder and docs/api.md's output table must say: each
// generated from the output and field tables into the text between two marker lines of a file.
// tools/gen_api_docs.cpp writes or checks them; tests/test_api_docs.cpp checks them.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace vramcalc::api_docs {

std::string typings();           // the Estimate interface of src/bindings/vramcalc.d.ts
std::string estimate_builder();  // buildEstimate and its tables in src/bindings/vramcalc.mjs
std::string doc_table();         // the output table of docs/api.md

// A generated part of a file: the lines after the one holding `begin`, up to the one holding `end`.
struct Region {
    std::string path;   // relative to the source directory
    std::string begin;  // text in the marker line before it
    std::string end;    // text in the marker line after it
    std::string text;   // what belongs there
};
std::vector<Region> regions();  // every generated part, each file once

// What a file holds in a region's place (found: the file and both markers exist, in order).
struct RegionText {
    bool found = false;
    std::string file;        // the whole file
    std::size_t start = 0;   // where the region starts in it
    std::string current;     // the region's text now
};
RegionText read_region(const std::string& source_dir, const Region& region);
// Rewrites the region with region.text; false when its file or a marker is missing or writing failed.
bool write_region(const std::string& source_dir, const Region& region);

}  // namespace vramcalc::api_docs
