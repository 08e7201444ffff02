// The one way the tests run an MPI check program of build/tests (zeropp_comm_check,
// comm_staged_check, nccl_zeropp_check): under a real mpirun of n ranks, each of which
// prints "rank R: ok" when all its checks pass and one "FAILED ..." line per failure.
#pragma once

#include "tests/support/process.h"

#include <gtest/gtest.h>

#include <string>

namespace zerolab::test {

// Runs build/tests/<program> on n ranks; expects a clean exit and every rank ok.
inline void expectEveryRankOk(const std::string& program, int n) {
    const std::string prog = std::string(ZEROLAB_BIN_DIR) + "/../tests/" + program;
    const auto r = runProcess(mpirun(n, prog, {}));
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    for (int rank = 0; rank < n; ++rank)
        EXPECT_NE(r.out.find("rank " + std::to_string(rank) + ": ok"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("FAILED"), std::string::npos) << r.out;
}

} // namespace zerolab::test
