// Runs the built `vramcalc` command for end-to-end tests: exit code, stdout, stderr.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace vramcalc::testing {

struct CliRun {
    int exit_code;
    std::string out;
    std::string err;
};

inline std::string slurp(const std::string& path) {
    std::ifstream in(path);
    return {std::istreambuf_iterator<char>(in), {}};
}

// `args` is passed through the shell as written; `stdin_text` is fed on standard input.
inline CliRun run_cli(const std::string& args, const std::string& stdin_text = "") {
    std::string base = "/tmp/vramcalc_cli_test_" + std::to_string(::getpid());
    std::ofstream(base + ".in") << stdin_text;
    std::string command =
        std::string(VRAMCALC_CLI_PATH) + " " + args + " <" + base + ".in >" + base + ".out 2>" + base + ".err";
    int status = std::system(command.c_str());
    CliRun r{WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(base + ".out"), slurp(base + ".err")};
    for (const char* suffix : {".in", ".out", ".err"}) std::remove((base + suffix).c_str());
    return r;
}

}  // namespace vramcalc::testing
