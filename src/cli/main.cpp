// vramcalc: the native command. Reads a scenario (JSON file, link fragment, presets, flags),
// prints the estimate as a table (GiB by default) or as JSON (--json). The work is cli::run().
#include <cstdio>
#include <string>
#include <vector>

#include "cli/cli.hpp"

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    vramcalc::cli::Result r = vramcalc::cli::run(args);
    std::fwrite(r.err.data(), 1, r.err.size(), stderr);
    std::fwrite(r.out.data(), 1, r.out.size(), stdout);
    return r.exit_code;
}
