-- Schema version 3 -> 4: the step timeline (storage/timeline.h) of the sampled steps:
-- one row per sampled step, its spans and its memory samples, every rank's. Deleting a
-- run or a timeline row cascades; RunWriter::beginSegment deletes the timelines a
-- resumed run rewinds over. Runs inside RunStore's migration transaction.
CREATE TABLE timelines (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    step INTEGER NOT NULL,
    world INTEGER NOT NULL,
    PRIMARY KEY (run_id, step)
) WITHOUT ROWID;

-- One row per rank of a sampled step: its spans as a JSON array of objects {"kind",
-- "unit", "micro", "collective", "bytes", "seq", "issue_ns", "start_ns", "end_ns"} (kind
-- and collective by name, kSpanKindNames and kCollectiveNames, collective null but for
-- collective and wait spans; times in integer nanoseconds since the step's start on the
-- run's common clock, rank 0's). One text per rank, not a row per span: a row cost 3-5 us
-- to insert, 5% of a nano step at every step. SQL reads them through json_each, e.g.
--   SELECT s.rank, j.value->>'kind', (j.value->>'end_ns' - j.value->>'start_ns') / 1e3
--   FROM timeline_spans s, json_each(s.spans) j WHERE s.run_id = 1 AND s.step = 10;
CREATE TABLE timeline_spans (
    run_id INTEGER NOT NULL,
    step INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    spans TEXT NOT NULL,
    PRIMARY KEY (run_id, step, rank),
    FOREIGN KEY (run_id, step) REFERENCES timelines(run_id, step) ON DELETE CASCADE
);

-- A rank's memory-ledger categories at one moment of the step (t_us: microseconds since
-- the step's start, as above), one column per category (kMemCategoryNames, bytes); NULL
-- where the category was not sampled then. A category keeps its value until its next
-- sample or the step's end.
CREATE TABLE timeline_memory (
    run_id INTEGER NOT NULL,
    step INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    t_us REAL NOT NULL,
    params INTEGER,
    master_params INTEGER,
    grads INTEGER,
    optim_m INTEGER,
    optim_v INTEGER,
    activations INTEGER,
    comm_buffers INTEGER,
    workspace INTEGER,
    PRIMARY KEY (run_id, step, rank, idx),
    FOREIGN KEY (run_id, step) REFERENCES timelines(run_id, step) ON DELETE CASCADE
) WITHOUT ROWID;
