UPDATE timelines SET world = 2147483647 WHERE step = 1;
