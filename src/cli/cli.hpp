// The vramcalc command as a function: arguments in; exit status, standard output and standard
// error out. main.cpp runs it on the real argv, files and stdin; tests and the fuzz target
// (tests/fuzz/fuzz_cli.cpp) run it in-process with their own file reader.
//
// Whatever the arguments (any bytes, any number), it returns: never aborts, never throws, and
// every byte it writes is valid UTF-8 without control characters other than line breaks (user
// text in messages is escaped: codec/text.hpp). Exit status: 0 ok, 2 invalid input (each problem
// on stderr, naming the field), 3 internal error (a bug).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace vramcalc::cli {

inline constexpr int exit_ok = 0;
inline constexpr int exit_invalid = 2;
inline constexpr int exit_internal_error = 3;

// At most this many bytes are read from any file or stdin (--config, --hf-config,
// --deepspeed-config): real configs are a few KB.
inline constexpr std::size_t max_input_bytes = std::size_t(1) << 20;  // 1 MiB
// At most this many problems and notes are printed; the rest are counted ("… and N more").
inline constexpr std::size_t max_printed_lines = 100;

struct ReadResult {
    bool ok = false;
    std::string text;     // at most the `limit` bytes asked for
    std::string problem;  // when !ok: "No such file or directory", "is a directory", …
};
// Reads at most `limit` bytes of the file at `path` ("-" = standard input), stopping there.
using FileReader = std::function<ReadResult(const std::string& path, std::size_t limit)>;

// The real file system and standard input (POSIX read(2), so /dev/zero and endless pipes stop at
// the limit; a directory is reported as one).
ReadResult read_file(const std::string& path, std::size_t limit);

struct Result {
    int exit_code = exit_ok;
    std::string out;  // standard output
    std::string err;  // standard error
};

// `args` are the arguments after the program name.
Result run(const std::vector<std::string>& args, const FileReader& read = read_file);

}  // namespace vramcalc::cli
