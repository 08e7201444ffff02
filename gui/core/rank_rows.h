// A step's rank rows checked against the world they were logged in (issue 29 §1: the
// store is untrusted input): a step of N ranks has one row for each of ranks 0..N-1. The
// rows that fit are kept, each rank once and in order; what did not fit is said in one
// bounded line, so a damaged store never draws a wrong chart or sizes one by a bad value.
#pragma once

#include "storage/records.h"

#include <cstdint>
#include <string>
#include <vector>

namespace zerolab {

struct CheckedRanks {
    std::vector<RankRecord> ranks; // ranks within 0..world-1, the first row of each, ascending
    std::string problem;           // empty when the rows are the world's; else what is wrong
};

// "rank 7 outside the world of 2 (ranks 0..1)", "rank 0 twice", "1 of the 2 ranks missing
// (the first: rank 1)", joined by "; " when several apply; each kind said once. No rows
// at all is no problem (a step that logged none).
CheckedRanks checkRankRows(std::vector<RankRecord> rows, std::int64_t world);

// The world a step's rank rows were logged in: its segment's (a resume may change it), or
// the run's when the store has no segment for it.
std::int64_t worldAtStep(const RunInfo& info, const std::vector<Segment>& segments,
                         std::int64_t step);

} // namespace zerolab
