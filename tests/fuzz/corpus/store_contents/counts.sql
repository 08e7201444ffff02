UPDATE runs SET world = -1, stage = 99, status = 'bogus', heartbeat_at = 1e308, config_json = '{"run": {"collective_timeout_s": "x"}}';
UPDATE segments SET world = 0, start_step = -9223372036854775808;
UPDATE steps SET step = 9223372036854775807 WHERE step = 2;
UPDATE step_blocks SET steps = 1000000000, first_step = 5, last_step = -5;
UPDATE sweeps SET status = 'nope', definition = 'not json';
INSERT INTO events (run_id, time, level, rank, message) VALUES (1, 0, 'fatal', 2147483647, x'ff00');
