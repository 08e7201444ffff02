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

-- Times in microseconds since the step's start on the run's common clock (rank 0's).
-- kind: kSpanKindNames; collective: kCollectiveNames for collective and wait spans, else
-- NULL; idx: the span's place in the stored StepTimeline.
CREATE TABLE timeline_spans (
    run_id INTEGER NOT NULL,
    step INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('forward', 'backward', 'recompute', 'optimizer', 'data',
                                       'checkpoint', 'collective', 'wait', 'control')),
    unit INTEGER NOT NULL DEFAULT -1,
    micro INTEGER NOT NULL DEFAULT -1,
    collective TEXT CHECK (collective IN ('allreduce', 'reduce_scatter', 'allgather', 'broadcast')),
    bytes INTEGER NOT NULL DEFAULT 0,
    seq INTEGER NOT NULL DEFAULT -1,
    issue_us REAL NOT NULL,
    start_us REAL NOT NULL,
    end_us REAL NOT NULL,
    PRIMARY KEY (run_id, step, rank, idx),
    FOREIGN KEY (run_id, step) REFERENCES timelines(run_id, step) ON DELETE CASCADE
) WITHOUT ROWID;

-- A ledger category's bytes on one rank at a phase boundary of the step.
CREATE TABLE timeline_memory (
    run_id INTEGER NOT NULL,
    step INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    t_us REAL NOT NULL,
    category TEXT NOT NULL CHECK (category IN ('params', 'master_params', 'grads', 'optim_m',
                                               'optim_v', 'activations', 'comm_buffers',
                                               'workspace')),
    bytes INTEGER NOT NULL,
    PRIMARY KEY (run_id, step, rank, idx),
    FOREIGN KEY (run_id, step) REFERENCES timelines(run_id, step) ON DELETE CASCADE
) WITHOUT ROWID;
