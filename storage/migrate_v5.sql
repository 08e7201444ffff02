-- Schema version 4 -> 5: sweeps (runtime/tune, zerolab-sweep). A sweep is its definition
-- and an ordered list of trials; a trial that ran is a run (tagged "sweep-<id>") and
-- points at it. The state lives here so that list, show and resume work from any
-- terminal. Deleting a sweep cascades to its trials, never to their runs; deleting a run
-- leaves its trial with run_id NULL. Runs inside RunStore's migration transaction.
CREATE TABLE sweeps (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    source TEXT NOT NULL DEFAULT '',   -- the sweep file's path as given
    definition TEXT NOT NULL,          -- the sweep JSON, its base config inline
    status TEXT NOT NULL DEFAULT 'running'
        CHECK (status IN ('running', 'finished', 'stopped', 'failed')),
    created_at REAL NOT NULL,
    ended_at REAL,
    message TEXT NOT NULL DEFAULT ''
);

-- One row per candidate, in the order the strategy made them. status: pending (to run),
-- running, finished, failed, timeout, oom (ran and ended so), pruned (the planner's
-- forecast exceeds the capacity: never launched), invalid (the config is refused),
-- skipped (the guided search passed it by). forecast_bytes / capacity_bytes: the
-- planner's per-rank total and the capacity it was checked against. tokens_per_s: the
-- median over the measured steps, spread_tokens_per_s half their interquartile range;
-- peak_bytes the largest per-rank peak; exposed_ms the median exposed comm per step.
CREATE TABLE sweep_trials (
    sweep_id INTEGER NOT NULL REFERENCES sweeps(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    phase TEXT NOT NULL,               -- search, buckets, repeat
    repeat_of INTEGER,                 -- the idx a repeat measures again
    axes TEXT NOT NULL,                -- JSON object: axis -> value
    config TEXT NOT NULL DEFAULT '',   -- the candidate's config JSON
    world INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'running', 'finished', 'failed', 'timeout', 'oom',
                          'pruned', 'invalid', 'skipped')),
    reason TEXT NOT NULL DEFAULT '',
    forecast_bytes INTEGER,
    capacity_bytes INTEGER,
    run_id INTEGER REFERENCES runs(id) ON DELETE SET NULL,
    pid INTEGER,                       -- the launcher's pid (its process group) while running
    tokens_per_s REAL,
    spread_tokens_per_s REAL,
    peak_bytes INTEGER,
    exposed_ms REAL,
    started_at REAL,
    ended_at REAL,
    PRIMARY KEY (sweep_id, idx)
) WITHOUT ROWID;
