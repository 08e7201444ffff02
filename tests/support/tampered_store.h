// A run store edited to hold values they cannot mean (issue 29 §1: the store is untrusted
// input), for the exporters', zerolab-runs' and the GUI models' tests. Built through
// RunWriter, then edited by raw SQL as an older build, another tool or a hand edit could.
#pragma once

#include <cstdint>
#include <string>

namespace zerolab::test {

// What writeTamperedStore wrote: run 1 "tampered", world 2, steps 0..3 whole.
struct TamperedStore {
    std::int64_t run = 1;
    long long good_timeline = 0; // a whole timeline
    long long huge_world = 1;    // its timeline claims world 2147483647
    long long foreign_rank = 2;  // a span of rank 7 in a world of 2
    long long negative_rank = 3; // a memory sample of rank -3
    int steps = 4;
};

// Writes the store at `path` (created; it must not exist).
TamperedStore writeTamperedStore(const std::string& path);

} // namespace zerolab::test
