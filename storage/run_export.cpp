// CSV and JSONL writers for exportRun; steps are read in chunks of kChunkSteps.
#include "storage/run_export.h"

#include "storage/metric_lines.h"
#include "storage/stored_text.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>

namespace zerolab {

namespace {

constexpr std::int64_t kChunkSteps = 4096;

// Shortest text that parses back to exactly v; empty for NaN (unknown).
std::string num(double v) {
    if (std::isnan(v))
        return {};
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, res.ptr);
}

// Stored text as one CSV field: valid UTF-8, quoted when it holds a separator.
std::string csvField(const std::string& stored) {
    const std::string s = validUtf8(stored);
    if (s.find_first_of(",\"\n\r") == std::string::npos)
        return s;
    std::string q = "\"";
    for (char c : s)
        q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

void writeRow(std::ostream& out, const std::vector<std::string>& fields) {
    for (std::size_t i = 0; i < fields.size(); ++i)
        out << (i ? "," : "") << fields[i];
    out << '\n';
}

std::vector<std::string> stepFields(const StepRecord& s) {
    return {std::to_string(s.step),
            std::to_string(s.segment),
            num(s.wall_time_s),
            std::to_string(s.tokens),
            num(s.loss),
            num(s.lr),
            num(s.grad_norm),
            num(s.tokens_per_s),
            num(s.mfu),
            num(s.step_ms),
            num(s.fwd_ms),
            num(s.bwd_ms),
            num(s.optim_ms),
            num(s.comm.allreduce_ms),
            num(s.comm.reduce_scatter_ms),
            num(s.comm.allgather_ms),
            num(s.comm.broadcast_ms),
            num(s.comm.exposed_ms),
            std::to_string(s.comm_bytes),
            num(s.busbw_gbps),
            num(s.traffic.total()),
            num(s.traffic[Collective::AllReduce]),
            num(s.traffic[Collective::ReduceScatter]),
            num(s.traffic[Collective::AllGather]),
            num(s.traffic[Collective::Broadcast]),
            num(s.traffic.alltoall),
            num(s.traffic.link.within),
            num(s.traffic.link.across)};
}

std::vector<std::string> rankFields(const RankSample& s) {
    const RankRecord& r = s.rank;
    std::vector<std::string> f = {std::to_string(s.step), std::to_string(r.rank), csvField(r.host)};
    for (long long b : r.mem.bytes)
        f.push_back(std::to_string(b));
    for (std::int64_t v : {r.rss, r.device_used, r.peak})
        f.push_back(std::to_string(v));
    for (double ms : {r.comm.allreduce_ms, r.comm.reduce_scatter_ms, r.comm.allgather_ms,
                      r.comm.broadcast_ms, r.comm.exposed_ms})
        f.push_back(num(ms));
    return f;
}

nlohmann::json runJson(const RunRecord& r, const std::vector<Segment>& segments) {
    nlohmann::json config = nlohmann::json::parse(r.info.config_json, nullptr, false);
    if (config.is_discarded())
        config = r.info.config_json;
    nlohmann::json segs = nlohmann::json::array();
    for (const Segment& s : segments)
        segs.push_back({{"index", s.index},
                        {"start_step", s.start_step},
                        {"world", s.world},
                        {"stage", s.stage},
                        {"grad_accum", s.grad_accum},
                        {"micro_batch", s.micro_batch},
                        {"reason", s.reason}});
    return {{"type", "run"},
            {"run_id", r.id},
            {"uuid", r.info.uuid},
            {"name", r.info.name},
            {"world", r.info.world},
            {"stage", r.info.stage},
            {"precision", r.info.precision},
            {"params", r.info.params},
            {"config", config},
            {"host", r.info.host},
            {"command_line", r.info.command_line},
            {"pid", r.info.pid},
            {"tags", r.info.tags},
            {"notes", r.info.notes},
            {"created_at", metricNumber(r.created_at)},
            {"started_at", metricNumber(r.started_at)},
            {"segments", segs}};
}

// Calls fn(steps, rankSamples) per chunk of steps (rank samples of exactly those steps).
template <typename Fn>
void forEachChunk(RunReader& reader, std::int64_t run_id, bool withRanks, Fn fn) {
    std::int64_t after = -1;
    for (;;) {
        std::vector<StepRecord> steps = reader.steps(run_id, after, kChunkSteps);
        if (steps.empty())
            return;
        std::vector<RankSample> ranks;
        if (withRanks)
            ranks = reader.rankSeries(run_id, after, steps.back().step);
        after = steps.back().step;
        fn(steps, ranks);
    }
}

} // namespace

std::vector<std::string> stepCsvColumns() {
    return {"step",
            "segment",
            "wall_time_s",
            "tokens",
            "loss",
            "lr",
            "grad_norm",
            "tokens_per_s",
            "mfu",
            "step_ms",
            "fwd_ms",
            "bwd_ms",
            "optim_ms",
            "allreduce_ms",
            "reduce_scatter_ms",
            "allgather_ms",
            "broadcast_ms",
            "exposed_ms",
            "comm_bytes",
            "busbw_gbps",
            "traffic_bytes",
            "allreduce_traffic_bytes",
            "reduce_scatter_traffic_bytes",
            "allgather_traffic_bytes",
            "broadcast_traffic_bytes",
            "alltoall_traffic_bytes",
            "within_traffic_bytes",
            "across_traffic_bytes"};
}

std::vector<std::string> rankCsvColumns() {
    std::vector<std::string> c = {"step", "rank", "host"};
    for (auto name : kMemCategoryNames)
        c.emplace_back(name);
    for (const char* name : {"rss", "device_used", "peak", "allreduce_ms", "reduce_scatter_ms",
                             "allgather_ms", "broadcast_ms", "exposed_ms"})
        c.emplace_back(name);
    return c;
}

void exportRun(RunReader& reader, std::int64_t run_id, ExportFormat format, ExportTable table,
               std::ostream& out) {
    if (format == ExportFormat::Csv && table == ExportTable::Steps) {
        writeRow(out, stepCsvColumns());
        forEachChunk(reader, run_id, false, [&](const auto& steps, const auto&) {
            for (const StepRecord& s : steps)
                writeRow(out, stepFields(s));
        });
        return;
    }
    if (format == ExportFormat::Csv) {
        writeRow(out, rankCsvColumns());
        forEachChunk(reader, run_id, true, [&](const auto&, const auto& ranks) {
            for (const RankSample& r : ranks)
                writeRow(out, rankFields(r));
        });
        return;
    }
    const RunRecord run = reader.run(run_id);
    out << jsonText(runJson(run, reader.segments(run_id))) << '\n';
    forEachChunk(reader, run_id, true, [&](const auto& steps, const auto& ranks) {
        std::size_t k = 0;
        for (const StepRecord& s : steps) {
            nlohmann::json j = stepLine(s);
            for (; k < ranks.size() && ranks[k].step == s.step; ++k)
                j["ranks"].push_back(rankLine(ranks[k].rank));
            out << jsonText(j) << '\n';
        }
    });
    for (const Event& e : reader.events(run_id))
        out << jsonText({{"type", "event"},
                         {"id", e.id},
                         {"time", metricNumber(e.time)},
                         {"level", std::string(eventLevelName(e.level))},
                         {"rank", e.rank},
                         {"message", e.message}})
            << '\n';
    out << jsonText({{"type", "end"},
                     {"status", std::string(runStatusName(run.status))},
                     {"ended_at", metricNumber(run.ended_at)},
                     {"message", run.end_message}})
        << '\n';
}

} // namespace zerolab
