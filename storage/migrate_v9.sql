-- Schema version 8 -> 9: a sampled step's timeline becomes one row of timelines, every
-- rank's spans and memory samples as JSON arrays of arrays (schema.sql says why and how),
-- with every element written (schema.sql lets the trailing defaults be left out),
-- instead of a row per rank (timeline_spans, an array of objects) and a row per moment
-- (timeline_memory, a column per category). The values carry over exactly: times were
-- integer nanoseconds in the spans and nanoseconds / 1e3 in timeline_memory.t_us.
-- Runs inside RunStore's migration transaction, foreign keys off.
CREATE TABLE timelines_v9 (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    step INTEGER NOT NULL,
    world INTEGER NOT NULL,
    spans TEXT NOT NULL,
    memory TEXT NOT NULL,
    PRIMARY KEY (run_id, step)
);
WITH samples AS ( -- timeline_memory unpivoted: a row per category with a value
    SELECT m.run_id, m.step, m.rank, m.t_us, m.idx, c.i, c.name,
           CASE c.i WHEN 0 THEN m.params WHEN 1 THEN m.master_params WHEN 2 THEN m.grads
                    WHEN 3 THEN m.optim_m WHEN 4 THEN m.optim_v WHEN 5 THEN m.activations
                    WHEN 6 THEN m.comm_buffers WHEN 7 THEN m.workspace END AS bytes
    FROM timeline_memory m,
         (SELECT 0 AS i, 'params' AS name UNION ALL SELECT 1, 'master_params'
          UNION ALL SELECT 2, 'grads' UNION ALL SELECT 3, 'optim_m'
          UNION ALL SELECT 4, 'optim_v' UNION ALL SELECT 5, 'activations'
          UNION ALL SELECT 6, 'comm_buffers' UNION ALL SELECT 7, 'workspace') c
)
INSERT INTO timelines_v9 (run_id, step, world, spans, memory)
SELECT t.run_id, t.step, t.world,
    (SELECT json_group_array(json_array(s.rank, j.value->>'kind', j.value->>'start_ns',
                                        j.value->>'end_ns', j.value->>'unit',
                                        j.value->>'micro', j.value->>'collective',
                                        j.value->>'bytes', j.value->>'seq',
                                        j.value->>'issue_ns'))
     FROM timeline_spans s, json_each(s.spans) j
     WHERE s.run_id = t.run_id AND s.step = t.step),
    (SELECT json_group_array(json_array(x.rank, x.name, CAST(round(x.t_us * 1000) AS INTEGER),
                                        x.bytes))
     FROM samples x
     WHERE x.run_id = t.run_id AND x.step = t.step AND x.bytes IS NOT NULL)
FROM timelines t;
DROP TABLE timeline_memory;
DROP TABLE timeline_spans;
DROP TABLE timelines;
ALTER TABLE timelines_v9 RENAME TO timelines;
