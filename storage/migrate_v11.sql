-- Schema version 10 -> 11: traffic by link class (ZeRO++, storage/comm_traffic.h): the
-- all-to-alls' traffic and each step's traffic to ranks of the same host and of other
-- hosts, on steps and as min / max pairs on step_blocks. Rows of earlier runs keep NULL
-- (unknown). Runs inside RunStore's migration transaction.
ALTER TABLE steps ADD COLUMN alltoall_traffic_bytes REAL;
ALTER TABLE steps ADD COLUMN within_traffic_bytes REAL;
ALTER TABLE steps ADD COLUMN across_traffic_bytes REAL;
ALTER TABLE step_blocks ADD COLUMN min_alltoall_traffic_bytes REAL;
ALTER TABLE step_blocks ADD COLUMN max_alltoall_traffic_bytes REAL;
ALTER TABLE step_blocks ADD COLUMN min_within_traffic_bytes REAL;
ALTER TABLE step_blocks ADD COLUMN max_within_traffic_bytes REAL;
ALTER TABLE step_blocks ADD COLUMN min_across_traffic_bytes REAL;
ALTER TABLE step_blocks ADD COLUMN max_across_traffic_bytes REAL;
