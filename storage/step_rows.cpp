// Step rows and their level of detail. One list of value columns names the steps
// table's columns and step_blocks' min_ / max_ pairs, so the three queries (rows,
// blocks, raw spans) read the same StepRecord through readStepRow.
#include "storage/step_rows.h"

#include "storage/rank_columns.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace zerolab {

namespace {

// Every steps column after (run_id, step), in readStepRow's order.
const std::array<const char*, 19> kValueColumns = {"segment",      "wall_time_s",
                                                   "tokens",       "loss",
                                                   "lr",           "grad_norm",
                                                   "tokens_per_s", "mfu",
                                                   "step_ms",      "fwd_ms",
                                                   "bwd_ms",       "optim_ms",
                                                   "allreduce_ms", "reduce_scatter_ms",
                                                   "allgather_ms", "broadcast_ms",
                                                   "exposed_ms",   "comm_bytes",
                                                   "busbw_gbps"};

std::vector<std::string> valueColumns() {
    std::vector<std::string> cols(kValueColumns.begin(), kValueColumns.end());
    for (auto name : kCollectiveNames)
        cols.push_back(std::string(name) + "_traffic_bytes");
    for (auto name : kLinkColumnNames)
        cols.emplace_back(name);
    return cols;
}

// "f(step), f(segment), ...": an aggregate of every column in stepColumns() order, the
// step column named `step`, each value column `prefix` + its name.
std::string aggregateList(const char* f, const std::string& step, const std::string& prefix) {
    std::string sql = std::string(f) + "(" + step + ")";
    for (const std::string& c : valueColumns())
        sql += std::string(", ") + f + "(" + prefix + c + ")";
    return sql;
}

constexpr int kColumnCount =
    1 + int(kValueColumns.size()) + int(kCollectiveCount) + int(kLinkColumnCount);

// Appends the rows of one span of blocks: min columns at 0, max columns at
// kColumnCount, the span's step count after them.
void appendSpan(const SqliteStatement& q, StepLod& out) {
    const std::int64_t count = q.int64(2 * kColumnCount);
    out.logged += count;
    out.rows.push_back(readStepRow(q, 0));
    if (count > 1)
        out.rows.push_back(readStepRow(q, kColumnCount));
}

// Folds s into a span's minimum and maximum records, column by column; NaN (unknown)
// never wins, as SQL's min() and max() skip NULL.
void widen(StepRecord& lo, StepRecord& hi, const StepRecord& s) {
    auto real = [](double& a, double& b, double v) {
        a = std::fmin(a, v);
        b = std::fmax(b, v);
    };
    lo.step = std::min(lo.step, s.step);
    hi.step = std::max(hi.step, s.step);
    lo.segment = std::min(lo.segment, s.segment);
    hi.segment = std::max(hi.segment, s.segment);
    lo.tokens = std::min(lo.tokens, s.tokens);
    hi.tokens = std::max(hi.tokens, s.tokens);
    lo.comm_bytes = std::min(lo.comm_bytes, s.comm_bytes);
    hi.comm_bytes = std::max(hi.comm_bytes, s.comm_bytes);
    real(lo.wall_time_s, hi.wall_time_s, s.wall_time_s);
    real(lo.loss, hi.loss, s.loss);
    real(lo.lr, hi.lr, s.lr);
    real(lo.grad_norm, hi.grad_norm, s.grad_norm);
    real(lo.tokens_per_s, hi.tokens_per_s, s.tokens_per_s);
    real(lo.mfu, hi.mfu, s.mfu);
    real(lo.step_ms, hi.step_ms, s.step_ms);
    real(lo.fwd_ms, hi.fwd_ms, s.fwd_ms);
    real(lo.bwd_ms, hi.bwd_ms, s.bwd_ms);
    real(lo.optim_ms, hi.optim_ms, s.optim_ms);
    real(lo.comm.allreduce_ms, hi.comm.allreduce_ms, s.comm.allreduce_ms);
    real(lo.comm.reduce_scatter_ms, hi.comm.reduce_scatter_ms, s.comm.reduce_scatter_ms);
    real(lo.comm.allgather_ms, hi.comm.allgather_ms, s.comm.allgather_ms);
    real(lo.comm.broadcast_ms, hi.comm.broadcast_ms, s.comm.broadcast_ms);
    real(lo.comm.exposed_ms, hi.comm.exposed_ms, s.comm.exposed_ms);
    real(lo.busbw_gbps, hi.busbw_gbps, s.busbw_gbps);
    for (std::size_t c = 0; c < kCollectiveCount; ++c)
        real(lo.traffic.bytes[c], hi.traffic.bytes[c], s.traffic.bytes[c]);
    auto l = lo.traffic.linkColumns(), h = hi.traffic.linkColumns();
    const auto v = s.traffic.linkColumns();
    for (std::size_t c = 0; c < kLinkColumnCount; ++c)
        real(l[c], h[c], v[c]);
    lo.traffic.setLinkColumns(l);
    hi.traffic.setLinkColumns(h);
}

// Spans of `width` step numbers from `first`, read from the steps table. The spans are
// folded here rather than by SQL's min() and max(): two dozen aggregate calls per row
// cost seconds over a few hundred thousand rows, reading the rows a tenth of that.
void rawSpans(SqliteDb& db, std::int64_t run_id, std::int64_t first, std::int64_t last,
              std::int64_t width, StepLod& out) {
    auto q = db.cached("SELECT " + stepColumns() +
                       " FROM steps WHERE run_id = ?1 AND step >= ?2 AND step <= ?3 "
                       "ORDER BY step");
    q->bind(1, run_id).bind(2, first).bind(3, last);
    StepRecord lo, hi;
    std::int64_t span = -1, count = 0;
    auto emit = [&] {
        out.rows.push_back(lo);
        if (count > 1)
            out.rows.push_back(hi);
    };
    while (q->step()) {
        const StepRecord s = readStepRow(*q, 0);
        ++out.logged;
        const std::int64_t at = (s.step - first) / std::max<std::int64_t>(1, width);
        if (at != span) {
            if (count > 0)
                emit();
            lo = hi = s;
            span = at;
            count = 1;
            continue;
        }
        widen(lo, hi, s);
        ++count;
    }
    if (count > 0)
        emit();
}

} // namespace

std::string stepColumns() {
    std::string cols = "step";
    for (const std::string& c : valueColumns())
        cols += ", " + c;
    return cols;
}

StepRecord readStepRow(const SqliteStatement& q, int first) {
    StepRecord s;
    int col = first;
    s.step = q.int64(col++);
    s.segment = q.int32(col++);
    s.wall_time_s = q.real(col++);
    s.tokens = q.int64(col++);
    s.loss = q.real(col++);
    s.lr = q.real(col++);
    s.grad_norm = q.real(col++);
    s.tokens_per_s = q.real(col++);
    s.mfu = q.real(col++);
    s.step_ms = q.real(col++);
    s.fwd_ms = q.real(col++);
    s.bwd_ms = q.real(col++);
    s.optim_ms = q.real(col++);
    s.comm.allreduce_ms = q.real(col++);
    s.comm.reduce_scatter_ms = q.real(col++);
    s.comm.allgather_ms = q.real(col++);
    s.comm.broadcast_ms = q.real(col++);
    s.comm.exposed_ms = q.real(col++);
    s.comm_bytes = q.int64(col++);
    s.busbw_gbps = q.real(col++);
    for (double& bytes : s.traffic.bytes)
        bytes = q.real(col++);
    std::array<double, kLinkColumnCount> link{};
    for (double& bytes : link)
        bytes = q.real(col++);
    s.traffic.setLinkColumns(link);
    return s;
}

std::string insertStepBlockSql() {
    std::string names = "run_id, block, first_step, last_step, steps";
    for (const std::string& c : valueColumns())
        names += ", min_" + c + ", max_" + c;
    std::string values = "?1, ?2, min(step), max(step), count(*)";
    for (const std::string& c : valueColumns())
        values += ", min(" + c + "), max(" + c + ")";
    const std::string n = std::to_string(kStepBlockSteps);
    return "INSERT OR REPLACE INTO step_blocks (" + names + ") SELECT " + values +
           " FROM steps WHERE run_id = ?1 AND step >= ?2 * " + n + " AND step < (?2 + 1) * " + n +
           " HAVING count(*) > 0";
}

StepLod stepLodRows(SqliteDb& db, std::int64_t run_id, std::int64_t first, std::int64_t last,
                    std::int64_t buckets) {
    StepLod out;
    if (last < first)
        return out;
    out.width =
        std::max<std::int64_t>(1, (last - first + buckets) / std::max<std::int64_t>(1, buckets));
    // A span of two steps gives two rows, as the steps themselves would: give those, so
    // each value stays at its own step.
    if (out.width <= 2)
        out.width = 1;
    std::int64_t rawFrom = first;
    if (out.width >= kStepBlockSteps) {
        // Whole blocks: the width rounds up to blocks, the spans start at first's block.
        out.width = (out.width + kStepBlockSteps - 1) / kStepBlockSteps * kStepBlockSteps;
        const std::int64_t firstBlock = first / kStepBlockSteps;
        auto q = db.cached("SELECT " + aggregateList("min", "first_step", "min_") + ", " +
                           aggregateList("max", "last_step", "max_") +
                           ", sum(steps) FROM step_blocks WHERE run_id = ?1 AND block >= ?2 "
                           "AND block <= ?3 GROUP BY (block - ?2) * " +
                           std::to_string(kStepBlockSteps) + " / ?4 ORDER BY 1");
        q->bind(1, run_id).bind(2, firstBlock).bind(3, last / kStepBlockSteps).bind(4, out.width);
        while (q->step()) {
            appendSpan(*q, out);
            rawFrom = std::max(rawFrom, out.rows.back().step + 1);
        }
    }
    // After the stored blocks: the run's last block (never stored) as logged, or, where
    // blocks are missing, raw spans of the same width.
    const bool few = last - rawFrom < 4 * kStepBlockSteps;
    rawSpans(db, run_id, rawFrom, last, few ? 1 : out.width, out);
    return out;
}

} // namespace zerolab
