// zerolab-runs: the run store from a terminal. list, show, export (steps as CSV or JSON
// Lines, step timelines as a Chrome trace), delete, tag and note runs; RUN is an id or a
// unique name. Exit codes: 0 ok, 2 invalid input (arguments, a bad or missing store file,
// an unknown run), 1 anything else.
#include "runtime/text/stdout_written.h"
#include "storage/byte_scale.h"
#include "storage/default_path.h"
#include "storage/metric_lines.h"
#include "storage/run_export.h"
#include "storage/run_reader.h"
#include "storage/store_clock.h"
#include "storage/stored_text.h"
#include "storage/trace_export.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <unistd.h>

using namespace zerolab;

namespace {

// A running run without a heartbeat for this long, and without its process, is lost.
constexpr double kStaleAfterS = 30.0;
constexpr std::size_t kShownEvents = 10;

// Invalid input: printed, exit code 2.
struct InputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::string timeText(double t) {
    if (std::isnan(t))
        return "-";
    const std::time_t s = static_cast<std::time_t>(t);
    std::tm tm{};
    localtime_r(&s, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
    return buf;
}

std::string durationText(double s) {
    if (std::isnan(s) || s < 0)
        return "-";
    const auto total = static_cast<long long>(std::llround(s));
    std::ostringstream o;
    if (total >= 3600)
        o << total / 3600 << "h" << std::setw(2) << std::setfill('0') << (total % 3600) / 60 << "m";
    else if (total >= 60)
        o << total / 60 << "m" << std::setw(2) << std::setfill('0') << total % 60 << "s";
    else
        o << total << "s";
    return o.str();
}

std::string numText(double v, int precision) {
    if (std::isnan(v))
        return "-";
    std::ostringstream o;
    o << std::fixed << std::setprecision(precision) << v;
    return o.str();
}

// "482.30 KB", "27.60 MB", "0 B": decimal units scaled to the number, as zerolab-plan,
// zerolab-sweep and the GUI print them (storage/byte_scale.h).
std::string bytesText(long long bytes) {
    return scaledBytes(static_cast<double>(bytes), false);
}

// Notes as printed under `show`: each of their lines made safe for a terminal.
std::string notesText(const std::string& notes) {
    std::string out;
    std::size_t start = 0;
    for (;;) {
        const std::size_t end = notes.find('\n', start);
        out += oneLineText(std::string_view(notes).substr(start, end - start));
        if (end == std::string::npos)
            return out;
        out += "\n        ";
        start = end + 1;
    }
}

// Text an argument would put in the store: refused (exit 2) when storedTextProblem
// names a problem.
void checkText(const char* argument, const std::string& text, TextKind kind,
               std::size_t max_bytes) {
    if (const auto problem = storedTextProblem(text, kind, max_bytes))
        throw InputError(std::string(argument) + ": " + *problem);
}

std::string joined(const std::vector<std::string>& items, const char* sep) {
    std::string out;
    for (const auto& s : items)
        out += (out.empty() ? "" : sep) + s;
    return out;
}

nlohmann::json summaryJson(const RunSummary& s) {
    return {{"id", s.id},
            {"name", s.name},
            {"status", std::string(runStatusName(s.status))},
            {"stage", s.stage},
            {"world", s.world},
            {"micro_batch", s.micro_batch > 0 ? nlohmann::json(s.micro_batch) : nlohmann::json()},
            {"grad_accum", s.grad_accum > 0 ? nlohmann::json(s.grad_accum) : nlohmann::json()},
            {"steps", s.steps},
            {"planned_steps",
             s.planned_steps >= 0 ? nlohmann::json(s.planned_steps) : nlohmann::json()},
            {"last_loss", metricNumber(s.last_loss)},
            {"median_tokens_per_s", metricNumber(s.median_tokens_per_s)},
            {"created_at", metricNumber(s.created_at)},
            {"started_at", metricNumber(s.started_at)},
            {"ended_at", metricNumber(s.ended_at)},
            {"duration_s", metricNumber(s.duration_s)},
            {"tags", s.tags},
            {"notes", s.notes},
            {"host", s.host}};
}

// Display width of UTF-8 text: code points (continuation bytes do not count).
std::size_t displayWidth(const std::string& s) {
    std::size_t n = 0;
    for (unsigned char c : s)
        n += (c & 0xC0) != 0x80;
    return n;
}

// `s` cut to at most `width` code points, the last one an ellipsis when cut.
std::string fitted(const std::string& s, std::size_t width) {
    if (displayWidth(s) <= width)
        return s;
    std::size_t kept = 0, i = 0;
    for (; i < s.size(); ++i) {
        if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && kept++ == width - 1)
            break;
    }
    return s.substr(0, i) + "\u2026";
}

// A column of `width` code points and two spaces (setw counts bytes, not characters).
std::string cell(const std::string& s, std::size_t width) {
    const std::string f = fitted(s, width);
    return f + std::string(width - displayWidth(f) + 2, ' ');
}

// NAME grows with the longest name up to this many characters; longer names end in "…".
constexpr std::size_t kMaxNameWidth = 40;
// The TAGS column, last on the line, is cut at this many characters.
constexpr std::size_t kMaxTagsWidth = 60;

// A running run whose heartbeat is silent past its timeout reads as stalled, with how
// long (RunReader::heartbeatSilence): rank 0 is stopped or hung.
std::optional<double> silence(RunReader& reader, std::int64_t id, RunStatus status) {
    if (status != RunStatus::Running && status != RunStatus::Stalled)
        return std::nullopt;
    return reader.heartbeatSilence(id, unixNow());
}

// "20 of 40": the last logged step of the step the run goes to ("20" when that is unknown,
// "-" before the first step).
std::string stepsText(const RunSummary& r, const char* of) {
    if (r.steps < 0)
        return "-";
    return std::to_string(r.steps) +
           (r.planned_steps >= 0 ? of + std::to_string(r.planned_steps) : std::string());
}

std::string statusText(RunStatus status, const std::optional<double>& silent) {
    return silent ? std::string("stalled") : std::string(runStatusName(status));
}

void printList(RunReader& reader, const std::vector<RunSummary>& runs) {
    if (runs.empty()) {
        std::cout << "no runs\n";
        return;
    }
    std::size_t nameWidth = 4;
    for (const auto& r : runs)
        nameWidth = std::max(nameWidth, std::min(displayWidth(oneLineText(r.name)), kMaxNameWidth));
    std::cout << cell("ID", 5) << cell("NAME", nameWidth) << cell("STATUS", 8) << cell("STAGE", 5)
              << cell("WORLD", 5) << cell("MICRO", 5) << cell("ACCUM", 5) << cell("STEPS", 13)
              << cell("LOSS", 8) << cell("TOKENS/S", 10) << cell("DURATION", 8)
              << cell("STARTED", 19) << "TAGS\n";
    for (const auto& r : runs)
        std::cout << cell(std::to_string(r.id), 5) << cell(oneLineText(r.name), nameWidth)
                  << cell(statusText(r.status, silence(reader, r.id, r.status)), 8)
                  << cell(std::to_string(r.stage), 5) << cell(std::to_string(r.world), 5)
                  << cell(r.micro_batch > 0 ? std::to_string(r.micro_batch) : "-", 5)
                  << cell(r.grad_accum > 0 ? std::to_string(r.grad_accum) : "-", 5)
                  << cell(stepsText(r, "/"), 13) << cell(numText(r.last_loss, 4), 8)
                  << cell(numText(r.median_tokens_per_s, 0), 10)
                  << cell(durationText(r.duration_s), 8) << cell(timeText(r.started_at), 19)
                  << fitted(oneLineText(joined(r.tags, ",")), kMaxTagsWidth) << "\n";
}

nlohmann::json categoriesJson(const MemBreakdown& m) {
    nlohmann::json j = nlohmann::json::object();
    for (std::size_t c = 0; c < kMemCategoryCount; ++c)
        j[std::string(kMemCategoryNames[c])] = m.bytes[c];
    return j;
}

// show --json: the run and, per segment, the prediction stored when it started beside
// the ledger at its last logged step (every rank), both keyed by ledger category.
nlohmann::json showJson(RunReader& reader, std::int64_t id) {
    const RunRecord r = reader.run(id);
    nlohmann::json run = summaryJson(reader.summary(id));
    run["precision"] = r.info.precision;
    run["params"] = r.info.params;
    run["command_line"] = r.info.command_line;
    run["end_message"] = r.end_message;
    run["uuid"] = r.info.uuid;
    const std::optional<double> silent = silence(reader, id, r.status);
    run["heartbeat_silent_s"] = silent ? nlohmann::json(*silent) : nlohmann::json(nullptr);
    nlohmann::json segments = nlohmann::json::array();
    for (const Segment& g : reader.segments(id)) {
        nlohmann::json seg = {
            {"index", g.index},   {"start_step", g.start_step}, {"world", g.world},
            {"stage", g.stage},   {"grad_accum", g.grad_accum}, {"micro_batch", g.micro_batch},
            {"reason", g.reason}, {"predicted", nullptr},       {"measured", nullptr}};
        if (g.predicted) {
            seg["predicted"] = categoriesJson(*g.predicted);
            seg["predicted"]["traffic_bytes"] = metricNumber(g.predicted_traffic_bytes);
        }
        if (const auto last = reader.lastStepOfSegment(id, g.index)) {
            nlohmann::json ranks = nlohmann::json::array();
            for (const RankRecord& k : reader.rankRows(id, *last)) {
                nlohmann::json rank = categoriesJson(k.mem);
                rank["rank"] = k.rank;
                ranks.push_back(rank);
            }
            const auto steps = reader.steps(id, *last - 1, 1);
            seg["measured"] = {
                {"step", *last},
                {"ranks", ranks},
                {"traffic_bytes", steps.empty() ? nlohmann::json(nullptr)
                                                : metricNumber(steps.front().traffic.total())}};
        }
        segments.push_back(seg);
    }
    return {{"run", run}, {"segments", segments}};
}

void printShow(RunReader& reader, std::int64_t id) {
    const RunRecord r = reader.run(id);
    const RunSummary s = reader.summary(id);
    const std::optional<double> silent = silence(reader, id, r.status);
    std::cout << "run " << r.id << " '" << oneLineText(r.info.name)
              << "': " << statusText(r.status, silent);
    if (silent)
        std::cout << " (no heartbeat for " << durationText(*silent) << ", stored as "
                  << runStatusName(r.status) << ": rank 0 is stopped or hung)";
    if (!r.end_message.empty())
        std::cout << " (" << oneLineText(r.end_message) << ")";
    std::cout << "\n  uuid " << r.info.uuid;
    std::cout << "\n  host " << oneLineText(r.info.host) << ", pid " << r.info.pid << "\n  command "
              << oneLineText(r.info.command_line) << "\n  world " << r.info.world << ", stage "
              << r.info.stage << ", precision " << r.info.precision << ", params " << r.info.params
              << "\n  created " << timeText(r.created_at) << ", started " << timeText(r.started_at)
              << ", ended " << timeText(r.ended_at) << ", duration " << durationText(s.duration_s)
              << "\n  tags " << oneLineText(joined(r.info.tags, ", ")) << "\n  notes "
              << notesText(r.info.notes) << "\n  steps: last " << stepsText(s, " of ")
              << ", last loss " << numText(s.last_loss, 4) << ", median tokens/s "
              << numText(s.median_tokens_per_s, 0) << "\n";

    std::cout << "segments:\n";
    for (const Segment& g : reader.segments(id)) {
        std::cout << "  #" << g.index << " from step " << g.start_step << ": world " << g.world
                  << ", stage " << g.stage << ", accumulation " << g.grad_accum << ", micro-batch "
                  << g.micro_batch << " (" << oneLineText(g.reason) << ")";
        if (g.predicted)
            std::cout << "; predicted per rank " << bytesText(g.predicted->total());
        std::cout << "\n";
    }
    std::cout << "checkpoints:\n";
    for (const Checkpoint& c : reader.checkpoints(id))
        std::cout << "  step " << c.step << ": " << oneLineText(c.path) << " (world " << c.world
                  << ", stage " << c.stage << ", segment " << c.segment << ")\n";
    if (s.steps >= 0) {
        std::cout << "memory at step " << s.steps << " (decimal units, 1 MB = 1e6 bytes):\n  "
                  << std::left << std::setw(6) << "rank";
        for (auto name : kMemCategoryNames)
            std::cout << std::setw(15) << name;
        std::cout << std::setw(12) << "rss" << std::setw(12) << "device"
                  << "peak\n";
        for (const RankRecord& k : reader.rankRows(id, s.steps)) {
            std::cout << "  " << std::setw(6) << k.rank;
            for (long long b : k.mem.bytes)
                std::cout << std::setw(15) << bytesText(b);
            std::cout << std::setw(12) << bytesText(k.rss) << std::setw(12)
                      << bytesText(k.device_used) << bytesText(k.peak) << "\n";
        }
    }
    const std::vector<Event> events = reader.events(id);
    if (events.size() > kShownEvents)
        std::cout << "events (last " << kShownEvents << " of " << events.size() << "):\n";
    else
        std::cout << "events (" << events.size() << "):\n";
    for (std::size_t i = events.size() > kShownEvents ? events.size() - kShownEvents : 0;
         i < events.size(); ++i) {
        const Event& e = events[i];
        std::cout << "  " << timeText(e.time) << " " << eventLevelName(e.level) << " rank "
                  << e.rank << ": " << oneLineText(e.message) << "\n";
    }
    std::cout << "commands:\n";
    for (const Command& c : reader.commands(id))
        std::cout << "  #" << c.id << " " << commandKindName(c.kind)
                  << (std::isnan(c.arg) ? "" : " " + numText(c.arg, 6)) << " at "
                  << timeText(c.created_at) << ": "
                  << (std::isnan(c.acked_at) ? "pending" : "acknowledged " + timeText(c.acked_at))
                  << (c.ack_message.empty() ? "" : " (" + oneLineText(c.ack_message) + ")") << "\n";
}

std::int64_t resolve(RunReader& reader, const std::string& run, const std::string& path) {
    std::optional<std::int64_t> id;
    try {
        id = reader.resolveRun(run);
    } catch (const StoreError& e) {
        throw InputError(e.what());
    }
    if (!id)
        throw InputError(path + ": no run with id or name '" + run + "'");
    return *id;
}

// The sampled steps a trace export writes: those in --steps (all without it); a bad
// range, or none in it, is invalid input.
std::vector<long long> traceSteps(RunReader& reader, std::int64_t id, const std::string& run,
                                  const std::string& stepsText) {
    StepRange range;
    if (!stepsText.empty()) {
        const auto parsed = parseStepRange(stepsText);
        if (!parsed)
            throw InputError("--steps '" + stepsText +
                             "': expected A:B with 0 <= A <= B (or A:, :B, or one step A)");
        range = *parsed;
    }
    const std::vector<long long> sampled = reader.timelineSteps(id);
    std::vector<long long> steps;
    for (long long s : sampled)
        if (range.contains(s))
            steps.push_back(s);
    if (sampled.empty())
        throw InputError("run " + run +
                         " has no step timeline (run.timeline_every was 0, or it "
                         "ran before schema v4)");
    if (steps.empty()) {
        std::string list;
        for (std::size_t i = 0; i < sampled.size() && i < 10; ++i)
            list += (i ? ", " : "") + std::to_string(sampled[i]);
        throw InputError("run " + run + " has no sampled step in --steps '" + stepsText +
                         "' (sampled: " + list + (sampled.size() > 10 ? ", ..." : "") + ")");
    }
    return steps;
}

// Writes an export to `path` through a temporary file beside it, renamed over it once
// whole: a failed export (a full disk, an error half-way) leaves an earlier file as it
// was. A path that exists and is no regular file (/dev/stdout, a FIFO) is written in place.
void exportToFile(const std::string& path, const std::function<void(std::ostream&)>& write) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const bool inPlace = fs::exists(path, ec) && !fs::is_regular_file(path, ec);
    const std::string target =
        inPlace ? path : path + ".tmp-" + std::to_string(static_cast<long>(::getpid()));
    try {
        std::ofstream out(target, std::ios::binary | std::ios::trunc);
        if (!out)
            throw InputError(path + ": cannot write the export file");
        write(out);
        out.close();
        if (!out)
            throw std::runtime_error(path + ": write failed: " + std::strerror(errno));
        if (!inPlace) {
            fs::rename(target, path, ec);
            if (ec)
                throw std::runtime_error(path +
                                         ": cannot replace it with the export: " + ec.message());
        }
    } catch (...) {
        if (!inPlace)
            fs::remove(target, ec);
        throw;
    }
}

bool confirmDelete(RunReader& reader, std::int64_t id) {
    if (!isatty(STDIN_FILENO))
        throw InputError("refusing to delete run " + std::to_string(id) +
                         " without --yes (stdin is not a terminal)");
    const RunSummary s = reader.summary(id);
    std::cout << "delete run " << id << " '" << oneLineText(s.name) << "' with "
              << (s.steps < 0 ? 0 : s.steps + 1) << " steps and everything recorded for it? [y/N] "
              << std::flush;
    std::string answer;
    std::getline(std::cin, answer);
    return answer == "y" || answer == "Y" || answer == "yes";
}

// main() without the output check.
int runTool(int argc, char** argv) {
    CLI::App app{"zerolab-runs: list, inspect, export and manage runs in the zerolab run store"};
    std::string dbPath;
    app.add_option("--db", dbPath,
                   "run store file, before or after the subcommand (default: $ZEROLAB_DB, else "
                   "$XDG_DATA_HOME/zerolab/runs.db)");
    app.require_subcommand(1, 1);
    // --db after the subcommand too: its unknown options fall through to here.
    app.fallthrough();
    bool json = false, yes = false, ranks = false;
    std::string run, format, outPath, text, stepsText;

    auto* list = app.add_subcommand("list", "list runs, newest first");
    list->add_flag("--json", json, "print a JSON array instead of a table");
    auto* show = app.add_subcommand("show", "show one run: settings, segments, memory, events");
    show->add_option("RUN", run, "run id or unique name")->required();
    show->add_flag("--json", json,
                   "print JSON: the run, and per segment its prediction beside the ledger at "
                   "its last logged step");
    auto* exp = app.add_subcommand(
        "export", "export a run's steps as CSV or JSON Lines, or its step timelines as a trace");
    exp->add_option("RUN", run, "run id or unique name")->required();
    exp->add_option("--format", format,
                    "csv, jsonl, or trace (Chrome trace-event JSON of the sampled steps' "
                    "timelines, for Perfetto or chrome://tracing)")
        ->required()
        ->check(CLI::IsMember({"csv", "jsonl", "trace"}));
    exp->add_option("--out,-o", outPath, "output file (default: stdout)");
    exp->add_flag("--ranks", ranks, "csv: one row per rank and step instead of one per step");
    exp->add_option("--steps", stepsText,
                    "trace: the sampled steps in A:B (inclusive; A: or :B open; default all)");
    auto* del = app.add_subcommand("delete", "delete a run and everything recorded for it");
    del->add_option("RUN", run, "run id or unique name")->required();
    del->add_flag("--yes,-y", yes, "do not ask for confirmation");
    auto* tag = app.add_subcommand("tag", "add a tag to a run");
    tag->add_option("RUN", run, "run id or unique name")->required();
    tag->add_option("TAG", text, "the tag")->required();
    auto* note = app.add_subcommand("note", "set a run's notes");
    note->add_option("RUN", run, "run id or unique name")->required();
    note->add_option("TEXT", text, "the notes (replaces the old ones)")->required();

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : 2;
    }

    try {
        if (dbPath.empty()) {
            try {
                dbPath = defaultStorePath();
            } catch (const std::runtime_error& e) {
                throw InputError(e.what());
            }
        }
        if (!std::filesystem::exists(dbPath)) {
            if (list->parsed()) {
                std::cout << (json ? "[]" : "no runs (no store at " + dbPath + " yet)") << "\n";
                return 0;
            }
            throw InputError(dbPath + ": no run store here");
        }
        // A store on a read-only file system (a mounted backup, a read-only share) is read
        // as it is: no lost-run marking, no edits.
        const bool readOnlyFs = RunStore::onReadOnlyFileSystem(dbPath);
        if (readOnlyFs && (del->parsed() || tag->parsed() || note->parsed()))
            throw std::runtime_error(dbPath + ": on a read-only file system: it cannot be changed");
        if (readOnlyFs)
            std::cerr << "zerolab-runs: " << dbPath
                      << ": on a read-only file system: opened read-only\n";
        RunStore store = [&] {
            try {
                return RunStore::open(dbPath,
                                      readOnlyFs ? OpenMode::ReadOnly : OpenMode::ReadWrite);
            } catch (const StoreError& e) {
                if (e.isIo())
                    throw;
                throw InputError(e.what());
            }
        }();
        RunReader reader(std::move(store));
        if (!readOnlyFs)
            reader.markLostRuns(kStaleAfterS);

        if (list->parsed()) {
            const auto runs = reader.listRuns();
            if (json) {
                nlohmann::json arr = nlohmann::json::array();
                for (const auto& r : runs)
                    arr.push_back(summaryJson(r));
                std::cout << jsonText(arr, 2) << "\n";
            } else {
                printList(reader, runs);
            }
            return 0;
        }
        const std::int64_t id = resolve(reader, run, dbPath);
        if (show->parsed()) {
            if (json)
                std::cout << jsonText(showJson(reader, id), 2) << "\n";
            else
                printShow(reader, id);
        } else if (exp->parsed()) {
            std::function<void(std::ostream&)> write;
            if (format == "trace") {
                const std::vector<long long> steps = traceSteps(reader, id, run, stepsText);
                write = [&, steps](std::ostream& o) { exportTrace(reader, id, steps, o); };
            } else {
                if (!stepsText.empty())
                    throw InputError("--steps applies to --format trace only");
                const ExportFormat f = format == "csv" ? ExportFormat::Csv : ExportFormat::Jsonl;
                const ExportTable t = ranks ? ExportTable::Ranks : ExportTable::Steps;
                write = [&, f, t](std::ostream& o) { exportRun(reader, id, f, t, o); };
            }
            if (outPath.empty()) {
                write(std::cout);
                std::cout.flush();
                if (!std::cout)
                    throw std::runtime_error("write to stdout failed");
            } else {
                exportToFile(outPath, write);
            }
        } else if (del->parsed()) {
            // A live run is refused by deleteRun (markLostRuns above has already ended
            // runs whose process is gone).
            if (!yes && !confirmDelete(reader, id)) {
                std::cout << "not deleted\n";
                return 0;
            }
            reader.deleteRun(id);
            std::cout << "deleted run " << id << "\n";
        } else if (tag->parsed()) {
            checkText("TAG", text, TextKind::OneLine, kMaxTagBytes);
            reader.addTag(id, text);
        } else if (note->parsed()) {
            checkText("TEXT", text, TextKind::MultiLine, kMaxNotesBytes);
            reader.setNotes(id, text);
        }
        return 0;
    } catch (const InputError& e) {
        std::cerr << "zerolab-runs: " << e.what() << "\n";
        return 2;
    } catch (const StoreError& e) {
        // A damaged file found past the open (a malformed page) is bad input too.
        std::cerr << "zerolab-runs: " << e.what() << "\n";
        return e.isIo() ? 1 : 2;
    } catch (const std::exception& e) {
        std::cerr << "zerolab-runs: " << e.what() << "\n";
        return 1;
    }
}

} // namespace

int main(int argc, char** argv) {
    return zerolab::exitAfterOutput("zerolab-runs", runTool(argc, argv));
}
