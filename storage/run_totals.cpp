// Last step, last loss and median tokens/s of a run, and their cache in runs.final_*.
#include "storage/run_totals.h"

#include "storage/sqlite_db.h"

#include <algorithm>
#include <vector>

namespace zerolab {

RunTotals computeRunTotals(SqliteDb& db, std::int64_t run_id) {
    RunTotals t;
    {
        auto last = db.cached("SELECT step, loss FROM steps WHERE run_id = ?1 "
                              "ORDER BY step DESC LIMIT 1");
        last->bind(1, run_id);
        if (last->step()) {
            t.last_step = last->int64(0);
            t.last_loss = last->real(1);
        }
    }
    // The median over the run's steps; nth_element in C++ beats an ORDER BY in SQL
    // because no index covers tokens_per_s.
    std::vector<double> tps;
    auto all = db.cached("SELECT tokens_per_s FROM steps WHERE run_id = ?1 "
                         "AND tokens_per_s IS NOT NULL");
    all->bind(1, run_id);
    while (all->step())
        tps.push_back(all->real(0));
    if (!tps.empty()) {
        const std::size_t mid = tps.size() / 2;
        std::nth_element(tps.begin(), tps.begin() + mid, tps.end());
        double m = tps[mid];
        if (tps.size() % 2 == 0)
            m = (m + *std::max_element(tps.begin(), tps.begin() + mid)) / 2;
        t.median_tokens_per_s = m;
    }
    return t;
}

void cacheRunTotals(SqliteDb& db, std::int64_t run_id, const RunTotals& totals) {
    auto up = db.cached("UPDATE runs SET final_steps = ?2, final_last_loss = ?3, "
                        "final_median_tokens_per_s = ?4 WHERE id = ?1");
    up->bind(1, run_id).bind(2, totals.last_step).bind(3, totals.last_loss);
    up->bind(4, totals.median_tokens_per_s);
    up->run();
}

} // namespace zerolab
