// The smallest zerolab-calibrate job the calibration tests run: one model, one micro-batch,
// two ranks, collective sizes up to 64 KiB, writing its profile to `out`.
#pragma once

#include "tests/support/process.h"

#include <string>
#include <vector>

namespace zerolab::test {

inline std::vector<std::string> shortCalibration(const std::string& out) {
    return {toolPath("zerolab-calibrate"), "--out", out, "--model", "micro", "--micro", "1",
            "--ranks", "2", "--reps", "1", "--rounds", "2", "--max-bytes", "65536",
            // ctest runs other tests beside this one: the machine is loaded by design, and
            // these tests check the tool's behaviour, not the profile's accuracy.
            "--allow-load"};
}

} // namespace zerolab::test
