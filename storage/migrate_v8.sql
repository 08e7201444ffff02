-- Schema version 7 -> 8: each run's uuid (storage/run_uuid.h), its identity across stores
-- and checkpoints; a resume binds a checkpoint to a run by it. Existing runs get a random
-- version-4 uuid here. Runs inside RunStore's migration transaction.
ALTER TABLE runs ADD COLUMN uuid TEXT;
UPDATE runs SET uuid = lower(
    hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) ||
    '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' ||
    hex(randomblob(6)));
CREATE UNIQUE INDEX runs_uuid ON runs(uuid);
