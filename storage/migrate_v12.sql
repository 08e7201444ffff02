-- Schema version 11 -> 12: machine profiles of the step-time model (docs/planner.md,
-- "Machine profile"), as zerolab-calibrate measured them: one row per calibration.
CREATE TABLE machine_profiles (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,     -- the host calibrated, or a preset's key
    source TEXT NOT NULL,   -- calibrated, preset
    created_at REAL NOT NULL,
    profile TEXT NOT NULL   -- the profile's JSON, as its file holds it
);
CREATE INDEX machine_profiles_by_name ON machine_profiles(name, created_at);
