-- zerolab run store, schema version 12 (PRAGMA user_version = 12, application_id "ZLAB").
-- New stores are created from this file; older ones reach it through migrate_v*.sql,
-- and a test checks that both paths give the same tables, columns and indexes.
-- Times are Unix seconds (REAL). NULL means unknown. Deleting a run cascades.

-- One row per run. final_* cache the summary when the run ends (finish or lost).
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'running'
        CHECK (status IN ('running', 'finished', 'stopped', 'failed', 'lost', 'stalled')),
    created_at REAL NOT NULL,
    started_at REAL,
    ended_at REAL,
    host TEXT NOT NULL DEFAULT '',
    command_line TEXT NOT NULL DEFAULT '',
    world INTEGER NOT NULL,
    stage INTEGER NOT NULL CHECK (stage BETWEEN 0 AND 3),
    precision TEXT NOT NULL DEFAULT '',
    params INTEGER,
    config_json TEXT NOT NULL DEFAULT '{}',
    notes TEXT NOT NULL DEFAULT '',
    pid INTEGER,
    heartbeat_at REAL,
    end_message TEXT NOT NULL DEFAULT '',
    final_steps INTEGER,
    final_last_loss REAL,
    final_median_tokens_per_s REAL,
    -- The run's identity across stores and checkpoints (storage/run_uuid.h); a resume binds
    -- a checkpoint to its run by it. Set by RunWriter::createRun; unique.
    uuid TEXT
);
CREATE INDEX runs_name ON runs(name);
CREATE UNIQUE INDEX runs_uuid ON runs(uuid);

CREATE TABLE run_tags (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    tag TEXT NOT NULL,
    PRIMARY KEY (run_id, tag)
) WITHOUT ROWID;

-- A run resumed with another world size, stage or accumulation continues as a new segment.
-- config_json: the segment's resolved config; predicted_*: the planner's bytes per ledger
-- category per rank (predictRun) and traffic per rank per step; NULL when unknown.
CREATE TABLE segments (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    start_step INTEGER NOT NULL,
    world INTEGER NOT NULL,
    stage INTEGER NOT NULL CHECK (stage BETWEEN 0 AND 3),
    grad_accum INTEGER NOT NULL,
    micro_batch INTEGER NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    started_at REAL,
    config_json TEXT NOT NULL DEFAULT '',
    predicted_params INTEGER,
    predicted_master_params INTEGER,
    predicted_grads INTEGER,
    predicted_optim_m INTEGER,
    predicted_optim_v INTEGER,
    predicted_activations INTEGER,
    predicted_comm_buffers INTEGER,
    predicted_workspace INTEGER,
    predicted_traffic_bytes REAL,
    PRIMARY KEY (run_id, idx)
) WITHOUT ROWID;

-- One row per logged step; times in ms, comm_bytes per step (buffer sizes, nccl-tests'),
-- busbw in GB/s, *_traffic_bytes: bytes a rank sent per kind under ring algorithms;
-- alltoall_traffic_bytes: ZeRO++'s all-to-alls; within_ / across_traffic_bytes: the same
-- total sent to ranks of its own host / of other hosts (storage/comm_traffic.h).
CREATE TABLE steps (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    step INTEGER NOT NULL,
    wall_time_s REAL,
    tokens INTEGER,
    loss REAL,
    lr REAL,
    grad_norm REAL,
    tokens_per_s REAL,
    mfu REAL,
    step_ms REAL,
    fwd_ms REAL,
    bwd_ms REAL,
    optim_ms REAL,
    allreduce_ms REAL,
    reduce_scatter_ms REAL,
    allgather_ms REAL,
    broadcast_ms REAL,
    exposed_ms REAL,
    comm_bytes INTEGER,
    busbw_gbps REAL,
    segment INTEGER NOT NULL DEFAULT 0,
    allreduce_traffic_bytes REAL,
    reduce_scatter_traffic_bytes REAL,
    allgather_traffic_bytes REAL,
    broadcast_traffic_bytes REAL,
    alltoall_traffic_bytes REAL,
    within_traffic_bytes REAL,
    across_traffic_bytes REAL,
    PRIMARY KEY (run_id, step)
) WITHOUT ROWID;

-- One row per rank per logged step: the memory-ledger categories (bytes, columns named
-- by kMemCategoryNames), rss / device_used / peak bytes, and that rank's comm times.
CREATE TABLE rank_steps (
    run_id INTEGER NOT NULL,
    step INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    host TEXT NOT NULL DEFAULT '',
    params INTEGER NOT NULL DEFAULT 0,
    master_params INTEGER NOT NULL DEFAULT 0,
    grads INTEGER NOT NULL DEFAULT 0,
    optim_m INTEGER NOT NULL DEFAULT 0,
    optim_v INTEGER NOT NULL DEFAULT 0,
    activations INTEGER NOT NULL DEFAULT 0,
    comm_buffers INTEGER NOT NULL DEFAULT 0,
    workspace INTEGER NOT NULL DEFAULT 0,
    rss INTEGER,
    device_used INTEGER,
    peak INTEGER,
    allreduce_ms REAL,
    reduce_scatter_ms REAL,
    allgather_ms REAL,
    broadcast_ms REAL,
    exposed_ms REAL,
    PRIMARY KEY (run_id, step, rank),
    FOREIGN KEY (run_id, step) REFERENCES steps(run_id, step) ON DELETE CASCADE
) WITHOUT ROWID;

-- The level of detail of long runs: per run, per block of 128 step numbers (step / 128)
-- that logged a step, its first and last logged step, how many, and each steps column's
-- minimum and maximum (migrate_v5.sql says when rows are written).
CREATE TABLE step_blocks (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    block INTEGER NOT NULL,
    first_step INTEGER NOT NULL,
    last_step INTEGER NOT NULL,
    steps INTEGER NOT NULL,
    min_segment INTEGER,
    max_segment INTEGER,
    min_wall_time_s REAL,
    max_wall_time_s REAL,
    min_tokens INTEGER,
    max_tokens INTEGER,
    min_loss REAL,
    max_loss REAL,
    min_lr REAL,
    max_lr REAL,
    min_grad_norm REAL,
    max_grad_norm REAL,
    min_tokens_per_s REAL,
    max_tokens_per_s REAL,
    min_mfu REAL,
    max_mfu REAL,
    min_step_ms REAL,
    max_step_ms REAL,
    min_fwd_ms REAL,
    max_fwd_ms REAL,
    min_bwd_ms REAL,
    max_bwd_ms REAL,
    min_optim_ms REAL,
    max_optim_ms REAL,
    min_allreduce_ms REAL,
    max_allreduce_ms REAL,
    min_reduce_scatter_ms REAL,
    max_reduce_scatter_ms REAL,
    min_allgather_ms REAL,
    max_allgather_ms REAL,
    min_broadcast_ms REAL,
    max_broadcast_ms REAL,
    min_exposed_ms REAL,
    max_exposed_ms REAL,
    min_comm_bytes INTEGER,
    max_comm_bytes INTEGER,
    min_busbw_gbps REAL,
    max_busbw_gbps REAL,
    min_allreduce_traffic_bytes REAL,
    max_allreduce_traffic_bytes REAL,
    min_reduce_scatter_traffic_bytes REAL,
    max_reduce_scatter_traffic_bytes REAL,
    min_allgather_traffic_bytes REAL,
    max_allgather_traffic_bytes REAL,
    min_broadcast_traffic_bytes REAL,
    max_broadcast_traffic_bytes REAL,
    min_alltoall_traffic_bytes REAL,
    max_alltoall_traffic_bytes REAL,
    min_within_traffic_bytes REAL,
    max_within_traffic_bytes REAL,
    min_across_traffic_bytes REAL,
    max_across_traffic_bytes REAL,
    PRIMARY KEY (run_id, block)
) WITHOUT ROWID;

-- rank -1: the launcher or all ranks.
CREATE TABLE events (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    time REAL NOT NULL,
    level TEXT NOT NULL CHECK (level IN ('info', 'warn', 'error')),
    rank INTEGER NOT NULL DEFAULT -1,
    message TEXT NOT NULL
);
CREATE INDEX events_run ON events(run_id, id);

CREATE TABLE checkpoints (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    step INTEGER NOT NULL,
    path TEXT NOT NULL,
    world INTEGER NOT NULL,
    stage INTEGER NOT NULL,
    time REAL NOT NULL,
    segment INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checkpoints_run ON checkpoints(run_id, step);

-- Written by the GUI, acknowledged by the runtime's rank 0 (acked_at NULL = pending).
CREATE TABLE commands (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('pause', 'resume', 'checkpoint', 'set_lr', 'stop')),
    arg REAL,
    created_at REAL NOT NULL,
    acked_at REAL,
    ack_message TEXT NOT NULL DEFAULT ''
);
CREATE INDEX commands_run ON commands(run_id, acked_at);

-- The step timeline (storage/timeline.h) of the sampled steps: one row per sampled step
-- holding every rank's spans and memory samples (schema v9; before, a row per rank in
-- timeline_spans and a row per sample in timeline_memory: eight pages a step where this
-- is two or three, the largest part of recording every nano step). RunWriter::beginSegment
-- deletes those a resumed run rewinds over. Both texts are JSON arrays of arrays, read by
-- position so that a step of N ranks stays small:
--   spans:  [rank, kind, start_ns, end_ns, unit, micro, collective, bytes, seq, issue_ns],
--           kind and collective by name (kSpanKindNames, kCollectiveNames); times in
--           integer nanoseconds since the step's start on the run's common clock, rank 0's.
--           Trailing elements at their default are left out: unit and micro -1 (none),
--           collective null (but for collective and wait spans), bytes 0, seq -1,
--           issue_ns = start_ns; most spans are [rank, kind, start_ns, end_ns, unit, micro];
--   memory: [rank, category, t_ns, bytes], category by name (kMemCategoryNames); each
--           category is sampled at the step's start, then only where it changed.
-- SQL reads them through json_each, e.g.
--   SELECT j.value->>0 AS rank, j.value->>1 AS kind, (j.value->>3 - j.value->>2) / 1e3 AS us
--   FROM timelines t, json_each(t.spans) j WHERE t.run_id = 1 AND t.step = 10;
-- A rowid table: a step's row is kilobytes, too large for a WITHOUT ROWID leaf.
CREATE TABLE timelines (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    step INTEGER NOT NULL,
    world INTEGER NOT NULL,
    spans TEXT NOT NULL,
    memory TEXT NOT NULL,
    PRIMARY KEY (run_id, step)
);

-- Sweeps (runtime/tune, zerolab-sweep): a sweep and its trials; a trial that ran is a run
-- tagged "sweep-<id>". Deleting a sweep cascades to its trials, never to their runs.
CREATE TABLE sweeps (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    source TEXT NOT NULL DEFAULT '',   -- the sweep file's path as given
    definition TEXT NOT NULL,          -- the sweep JSON, its base config inline
    status TEXT NOT NULL DEFAULT 'running'
        CHECK (status IN ('running', 'finished', 'stopped', 'failed')),
    created_at REAL NOT NULL,
    ended_at REAL,
    message TEXT NOT NULL DEFAULT '',
    -- The zerolab-sweep driving it (run or resume), NULL when none: one driver per sweep
    -- (SweepStore::claimDriver); its heartbeat is refreshed while it runs (v10).
    driver_pid INTEGER,
    driver_host TEXT,
    driver_heartbeat_at REAL
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

-- Machine profiles of the step-time model (docs/planner.md, "Machine profile"), as
-- zerolab-calibrate measured them: one row per calibration, the profile's JSON whole.
CREATE TABLE machine_profiles (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,     -- the host calibrated, or a preset's key
    source TEXT NOT NULL,   -- calibrated, preset
    created_at REAL NOT NULL,
    profile TEXT NOT NULL   -- the profile's JSON, as its file holds it
);
CREATE INDEX machine_profiles_by_name ON machine_profiles(name, created_at);
