-- Schema version 9 -> 10: the driver of a sweep (zerolab-sweep run or resume), so that a
-- second one is refused and one left by a killed driver is taken over (SweepStore::
-- claimDriver): its pid, host and the time it last said it was alive. NULL: none.
-- Runs inside RunStore's migration transaction.
ALTER TABLE sweeps ADD COLUMN driver_pid INTEGER;
ALTER TABLE sweeps ADD COLUMN driver_host TEXT;
ALTER TABLE sweeps ADD COLUMN driver_heartbeat_at REAL;
