// libFuzzer target: the vramcalc command's argument handling, cli::run() in-process.
// Input: the arguments separated by NUL bytes; after the first "\0\0", the content of every file
// the command reads (and of stdin). Paths that start with "/missing" do not exist; "/dir" is a
// directory. Invariants: exit 0 or 2 (3 is an internal error), stdout and stderr clean (valid
// UTF-8, no control or format character but line breaks), --json output one JSON document without
// nulls, invalid input named on stderr, and a printed link that --link takes back unchanged.
// With --plan: every plan's link opens as a valid scenario, and the best plan is never worse than
// the scenario itself when that fits with the planner's headroom (issue 22.1).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cli/cli.hpp"
#include "core/training/planner.hpp"
#include "fuzz_common.hpp"

namespace {

bool has(const std::vector<std::string>& args, const char* flag) {
    for (const auto& a : args)
        if (a == flag) return true;
    return false;
}

// The CLI's switches (cli.cpp): options that take no value.
bool is_switch(const std::string& arg) {
    for (const char* s : {"--help", "--json", "--gb", "--explain", "--markdown", "--print-link", "--plan",
                          "--list-presets", "--list-fields"})
        if (arg == s) return true;
    return false;
}

// Whether `flag` is certainly read as an option, not as another option's value ("--gpu
// --print-link" names a GPU): some occurrence comes first, or after an argument that cannot take
// it as its value (a word, which is itself a value or an error, an "--option=value" or a switch).
// After an other "--option" it is left undecided (a field flag takes it; an unknown option or a
// boolean flag does not), and the checks that need it are skipped.
bool read_as_option(const std::vector<std::string>& args, const char* flag) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] != flag) continue;
        if (i == 0) return true;
        const std::string& before = args[i - 1];
        if (!before.starts_with("--") || before.find('=') != std::string::npos || is_switch(before)) return true;
    }
    return false;
}

vramcalc::cli::Result run(const std::vector<std::string>& args, const std::string& content) {
    return vramcalc::cli::run(args, [&](const std::string& path, std::size_t limit) {
        vramcalc::cli::ReadResult r;
        if (path.starts_with("/missing")) r.problem = "No such file or directory";
        else if (path.starts_with("/dir")) r.problem = "it is a directory";
        else r = {true, content.substr(0, limit), ""};
        return r;
    });
}

// A --plan run that succeeded, rerun with --print-link --json: the scenario (the first line) and its
// plans. Every plan is a valid scenario; when the scenario itself fits with the headroom the planner
// asks (PlanOptions' default, which the CLI keeps), the best plan is at least as fast.
void check_plan(std::vector<std::string> args, const std::string& content) {
    using namespace vramcalc;
    args.push_back("--print-link");
    args.push_back("--json");
    cli::Result r = run(args, content);
    if (r.exit_code != cli::exit_ok) return;  // the appended flags were taken as a value
    std::size_t end = r.out.find('\n');
    if (end == std::string::npos || r.out.compare(end + 1, 1, "{") != 0) return;
    auto decoded = codec::decode_link(r.out.substr(0, end));
    nlohmann::json j = nlohmann::json::parse(r.out.substr(end + 1), nullptr, false);
    if (!decoded.ok() || j.is_discarded() || !j.contains("plans")) return;
    for (const auto& p : j["plans"]) {
        auto plan_link = codec::decode_link(p["link"].get<std::string>());
        FUZZ_CHECK(plan_link.ok(), "a plan's link is not a valid scenario: " + fuzz::issues_text(plan_link.issues));
    }
    Scenario own = decoded.scenario;
    own.hardware.throughput_model = ThroughputModel::predicted;
    if (!is_valid(own)) return;
    Estimate e = estimate(own);
    if (!e.fits || e.headroom_bytes < PlanOptions{}.min_headroom_fraction * e.capacity_bytes) return;
    FUZZ_CHECK(!j["plans"].empty(), "the scenario fits but the planner found nothing: " + r.out.substr(0, end));
    double best = j["plans"][0]["performance"]["step_seconds"].get<double>();
    FUZZ_CHECK(best <= e.performance.step_seconds * (1 + 1e-9),
               "the best plan is slower than the scenario itself: " + r.out.substr(0, end));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace vramcalc;
    std::string_view input(reinterpret_cast<const char*>(data), size);
    std::size_t split = input.find(std::string_view("\0\0", 2));
    std::string content(split == std::string_view::npos ? std::string_view{} : input.substr(split + 2));
    std::string_view argv_text = input.substr(0, split);
    std::vector<std::string> args;
    while (!argv_text.empty()) {
        std::size_t end = argv_text.find('\0');
        args.emplace_back(argv_text.substr(0, end));
        argv_text = end == std::string_view::npos ? std::string_view{} : argv_text.substr(end + 1);
        if (args.size() > 64) break;
    }

    cli::Result r = run(args, content);
    FUZZ_CHECK(r.exit_code == cli::exit_ok || r.exit_code == cli::exit_invalid,
               "exit " + std::to_string(r.exit_code) + ": " + codec::printable(r.err, 400));
    FUZZ_CHECK_CLEAN(r.out, "stdout");
    FUZZ_CHECK_CLEAN(r.err, "stderr");
    bool listing = has(args, "--help") || has(args, "-h") || has(args, "--list-presets") || has(args, "--list-fields");
    if (r.exit_code == cli::exit_invalid) {
        FUZZ_CHECK(r.err.starts_with("error: ") || r.err.find("\nerror: ") != std::string::npos, "invalid without a message");
        std::size_t lines = 0;
        for (char c : r.err) lines += c == '\n';
        FUZZ_CHECK(lines <= 2 * cli::max_printed_lines + 2, "more lines on stderr than the limits allow");
    }
    if (listing) return 0;
    if (r.exit_code == cli::exit_ok && read_as_option(args, "--plan")) check_plan(args, content);

    std::string out = r.out;
    if (r.exit_code == cli::exit_ok && read_as_option(args, "--print-link")) {
        // The first line is the link: --link must take it back, to the same link.
        std::string link = out.substr(0, out.find('\n'));
        auto decoded = codec::decode_link(link);
        FUZZ_CHECK(decoded.issues.empty(), "--print-link printed a link --link rejects: " + link + " " +
                                               fuzz::issues_text(decoded.issues));
        FUZZ_CHECK(codec::encode_link(decoded.scenario) == link, "the printed link does not round-trip: " + link);
        fuzz::check_accepted(decoded.scenario);
        out = out.substr(out.find('\n') + 1);
    }
    // --json output (unless "--json" was another flag's value, as in --name --json): one document.
    if (has(args, "--json") && out.starts_with("{")) {
        nlohmann::json j = nlohmann::json::parse(out, nullptr, false);
        FUZZ_CHECK(!j.is_discarded(), "--json output is not one JSON document: " + codec::printable(out, 400));
        FUZZ_CHECK(!fuzz::has_null(j), "--json output holds a null (a non-finite number)");
        FUZZ_CHECK(j.contains("errors") && j["errors"].is_array(), "--json output without errors");
        FUZZ_CHECK((r.exit_code == cli::exit_ok) == j["errors"].empty(), "exit status and JSON errors disagree");
    }
    return 0;
}
