-- Schema version 5 -> 6: step_blocks, the level of detail of long runs. One row per
-- run per block of 128 step numbers (block = step / 128) that logged a step: the
-- block's first and last logged step, how many it logged, and each steps column's
-- minimum and maximum over them. RunWriter writes a block once a step of a later block
-- is appended (so a block row never changes after), and deletes the blocks a resumed
-- run rewinds over; a run's last block is never stored, readers take its steps from
-- the steps table. RunReader::stepsLod reads these instead of millions of step rows
-- (docs/store.md). Runs inside RunStore's migration transaction; the backfill below
-- stores every block but each run's last.
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
    PRIMARY KEY (run_id, block)
) WITHOUT ROWID;

INSERT INTO step_blocks (run_id, block, first_step, last_step, steps, min_segment, max_segment, min_wall_time_s, max_wall_time_s, min_tokens, max_tokens, min_loss, max_loss, min_lr, max_lr, min_grad_norm, max_grad_norm, min_tokens_per_s, max_tokens_per_s, min_mfu, max_mfu, min_step_ms, max_step_ms, min_fwd_ms, max_fwd_ms, min_bwd_ms, max_bwd_ms, min_optim_ms, max_optim_ms, min_allreduce_ms, max_allreduce_ms, min_reduce_scatter_ms, max_reduce_scatter_ms, min_allgather_ms, max_allgather_ms, min_broadcast_ms, max_broadcast_ms, min_exposed_ms, max_exposed_ms, min_comm_bytes, max_comm_bytes, min_busbw_gbps, max_busbw_gbps, min_allreduce_traffic_bytes, max_allreduce_traffic_bytes, min_reduce_scatter_traffic_bytes, max_reduce_scatter_traffic_bytes, min_allgather_traffic_bytes, max_allgather_traffic_bytes, min_broadcast_traffic_bytes, max_broadcast_traffic_bytes)
SELECT run_id, step / 128, min(step), max(step), count(*), min(segment), max(segment), min(wall_time_s), max(wall_time_s), min(tokens), max(tokens), min(loss), max(loss), min(lr), max(lr), min(grad_norm), max(grad_norm), min(tokens_per_s), max(tokens_per_s), min(mfu), max(mfu), min(step_ms), max(step_ms), min(fwd_ms), max(fwd_ms), min(bwd_ms), max(bwd_ms), min(optim_ms), max(optim_ms), min(allreduce_ms), max(allreduce_ms), min(reduce_scatter_ms), max(reduce_scatter_ms), min(allgather_ms), max(allgather_ms), min(broadcast_ms), max(broadcast_ms), min(exposed_ms), max(exposed_ms), min(comm_bytes), max(comm_bytes), min(busbw_gbps), max(busbw_gbps), min(allreduce_traffic_bytes), max(allreduce_traffic_bytes), min(reduce_scatter_traffic_bytes), max(reduce_scatter_traffic_bytes), min(allgather_traffic_bytes), max(allgather_traffic_bytes), min(broadcast_traffic_bytes), max(broadcast_traffic_bytes)
FROM steps
WHERE step / 128 < (SELECT max(s.step) / 128 FROM steps s WHERE s.run_id = steps.run_id)
GROUP BY run_id, step / 128;
