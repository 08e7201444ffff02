-- Schema version 2 -> 3: what each segment was predicted to hold (bytes per ledger
-- category per rank, and traffic per rank per optimizer step) and its resolved config,
-- and each step's traffic per collective kind. Rows written before stay NULL (unknown).
-- Runs inside RunStore's migration transaction.
ALTER TABLE segments ADD COLUMN config_json TEXT NOT NULL DEFAULT '';
ALTER TABLE segments ADD COLUMN predicted_params INTEGER;
ALTER TABLE segments ADD COLUMN predicted_master_params INTEGER;
ALTER TABLE segments ADD COLUMN predicted_grads INTEGER;
ALTER TABLE segments ADD COLUMN predicted_optim_m INTEGER;
ALTER TABLE segments ADD COLUMN predicted_optim_v INTEGER;
ALTER TABLE segments ADD COLUMN predicted_activations INTEGER;
ALTER TABLE segments ADD COLUMN predicted_comm_buffers INTEGER;
ALTER TABLE segments ADD COLUMN predicted_workspace INTEGER;
ALTER TABLE segments ADD COLUMN predicted_traffic_bytes REAL;

ALTER TABLE steps ADD COLUMN allreduce_traffic_bytes REAL;
ALTER TABLE steps ADD COLUMN reduce_scatter_traffic_bytes REAL;
ALTER TABLE steps ADD COLUMN allgather_traffic_bytes REAL;
ALTER TABLE steps ADD COLUMN broadcast_traffic_bytes REAL;
