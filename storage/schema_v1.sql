-- zerolab run store, schema version 1: the first released schema, frozen.
-- Kept so that migrations from it are tested; new stores use schema.sql.
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'running'
        CHECK (status IN ('running', 'finished', 'stopped', 'failed', 'lost')),
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
    tags TEXT NOT NULL DEFAULT ''
);
CREATE INDEX runs_name ON runs(name);

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
    PRIMARY KEY (run_id, step)
) WITHOUT ROWID;

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
    time REAL NOT NULL
);
CREATE INDEX checkpoints_run ON checkpoints(run_id, step);
