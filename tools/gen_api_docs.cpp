// vramcalc_gen_api: writes or checks the parts of src/bindings/vramcalc.d.ts, src/bindings/vramcalc.mjs
// and docs/api.md generated from the output and field tables (tools/api_docs.hpp).
//   vramcalc_gen_api --write [SOURCE_DIR]   rewrite the stale parts in place
//   vramcalc_gen_api --check [SOURCE_DIR]   exit 1 and name each stale part
// SOURCE_DIR defaults to the source tree this was configured from. Exit 2: bad arguments, or a
// file or marker line missing.
#include <iostream>
#include <string>

#include "api_docs.hpp"

namespace {

int usage() {
    std::cerr << "usage: vramcalc_gen_api --write|--check [SOURCE_DIR]\n";
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || argc > 3) return usage();
    const std::string mode = argv[1];
    if (mode != "--write" && mode != "--check") return usage();
    const std::string source_dir = argc == 3 ? argv[2] : VRAMCALC_SOURCE_DIR;
    int status = 0;
    for (const auto& region : vramcalc::api_docs::regions()) {
        const auto found = vramcalc::api_docs::read_region(source_dir, region);
        if (!found.found) {
            std::cerr << source_dir << "/" << region.path << ": the file or its marker lines '" << region.begin
                      << "' and '" << region.end << "' are missing\n";
            return 2;
        }
        if (found.current == region.text) continue;
        if (mode == "--check") {
            std::cerr << region.path << ": stale (regenerate: vramcalc_gen_api --write)\n";
            status = 1;
        } else if (!vramcalc::api_docs::write_region(source_dir, region)) {
            std::cerr << region.path << ": could not be written\n";
            return 2;
        } else {
            std::cout << region.path << ": rewritten\n";
        }
    }
    return status;
}
