-- Schema version 1 -> 2: run segments, control commands, a heartbeat and pid for
-- lost-run detection, tags as rows instead of one comma-separated column, and the
-- summary cached when a run ends. Runs inside RunStore's migration transaction.
ALTER TABLE runs ADD COLUMN pid INTEGER;
ALTER TABLE runs ADD COLUMN heartbeat_at REAL;
ALTER TABLE runs ADD COLUMN end_message TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN final_steps INTEGER;
ALTER TABLE runs ADD COLUMN final_last_loss REAL;
ALTER TABLE runs ADD COLUMN final_median_tokens_per_s REAL;

CREATE TABLE run_tags (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    tag TEXT NOT NULL,
    PRIMARY KEY (run_id, tag)
) WITHOUT ROWID;
INSERT OR IGNORE INTO run_tags (run_id, tag)
WITH RECURSIVE split(run_id, tag, rest) AS (
    SELECT id, '', tags || ',' FROM runs WHERE tags <> ''
    UNION ALL
    SELECT run_id, trim(substr(rest, 1, instr(rest, ',') - 1)), substr(rest, instr(rest, ',') + 1)
    FROM split WHERE rest <> ''
)
SELECT run_id, tag FROM split WHERE tag <> '';
ALTER TABLE runs DROP COLUMN tags;

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
    PRIMARY KEY (run_id, idx)
) WITHOUT ROWID;
-- A v1 run was one segment; its accumulation and micro-batch were not recorded (0).
INSERT INTO segments (run_id, idx, start_step, world, stage, grad_accum, micro_batch, reason,
                      started_at)
SELECT id, 0, coalesce((SELECT min(step) FROM steps WHERE steps.run_id = runs.id), 0), world,
       stage, 0, 0, 'start', started_at
FROM runs;

ALTER TABLE steps ADD COLUMN segment INTEGER NOT NULL DEFAULT 0;
ALTER TABLE checkpoints ADD COLUMN segment INTEGER NOT NULL DEFAULT 0;

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
