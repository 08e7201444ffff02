-- Schema version 6 -> 7: the run status 'stalled' (a collective passed
-- run.collective_timeout_s; docs/engine.md, Liveness). SQLite cannot change a CHECK
-- constraint in place, so the runs table is rebuilt the way SQLite documents it (create
-- the new table, copy, drop the old, rename): RunStore runs every migration with foreign
-- keys off, so that dropping the old table cascades nothing, and checks them before the
-- commit. Runs inside RunStore's migration transaction.
CREATE TABLE runs_v7 (
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
    final_median_tokens_per_s REAL
);
INSERT INTO runs_v7 (id, name, status, created_at, started_at, ended_at, host,
    command_line, world, stage, precision, params, config_json, notes, pid,
    heartbeat_at, end_message, final_steps, final_last_loss, final_median_tokens_per_s)
SELECT id, name, status, created_at, started_at, ended_at, host, command_line, world,
    stage, precision, params, config_json, notes, pid, heartbeat_at, end_message,
    final_steps, final_last_loss, final_median_tokens_per_s FROM runs;
DROP TABLE runs;
ALTER TABLE runs_v7 RENAME TO runs;
CREATE INDEX runs_name ON runs(name);
