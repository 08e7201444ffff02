UPDATE timelines SET spans = json_set(spans, '$[1][0]', 7), memory = json_set(memory, '$[0][0]', -3);
UPDATE rank_steps SET rank = 99 WHERE step = 2;
