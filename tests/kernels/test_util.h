// Helpers for the kernel tests: seeded random data that is exactly representable
// in fp32 (so the double reference sees the kernel's inputs bit for bit), NaN
// poisoning, and the relative-error comparison used for every fp32 result.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <sstream>
#include <vector>

namespace zerolab::test {

// Seeded so that every run checks the same numbers.
class Rng {
public:
    explicit Rng(unsigned seed) : m_gen(seed) {}

    // Uniform values in [lo, hi), rounded to fp32.
    std::vector<double> uniform(std::size_t n, double lo = -1.0, double hi = 1.0) {
        std::uniform_real_distribution<double> dist(lo, hi);
        std::vector<double> v(n);
        for (auto& x : v)
            x = static_cast<float>(dist(m_gen));
        return v;
    }

    std::vector<int> integers(std::size_t n, int lo, int hiExclusive) {
        std::uniform_int_distribution<int> dist(lo, hiExclusive - 1);
        std::vector<int> v(n);
        for (auto& x : v)
            x = dist(m_gen);
        return v;
    }

private:
    std::mt19937_64 m_gen;
};

inline std::vector<float> toFloat(const std::vector<double>& v) {
    return {v.begin(), v.end()};
}

inline std::vector<double> toDouble(const std::vector<float>& v) {
    return {v.begin(), v.end()};
}

inline std::vector<float> poisoned(std::size_t n) {
    return std::vector<float>(n, std::numeric_limits<float>::quiet_NaN());
}

// Relative error of each element, with the denominator floored at 1% of the largest
// reference magnitude (a sum that cancels to ~0 carries the rounding of its terms).
// Fails on any NaN, on a size mismatch, or when an element exceeds rtol.
inline ::testing::AssertionResult closeTo(const std::vector<float>& got,
                                          const std::vector<double>& want, double rtol) {
    if (got.size() != want.size())
        return ::testing::AssertionFailure()
               << "size " << got.size() << " != expected " << want.size();
    double scale = 0.0;
    for (double w : want)
        scale = std::max(scale, std::abs(w));
    const double floor = std::max(0.01 * scale, 1e-30);
    double worst = 0.0;
    std::size_t worstAt = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        const double err =
            std::abs(static_cast<double>(got[i]) - want[i]) / std::max(std::abs(want[i]), floor);
        if (!(err <= worst)) { // also catches NaN
            worst = std::isnan(err) ? std::numeric_limits<double>::infinity() : err;
            worstAt = i;
        }
    }
    if (worst <= rtol)
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << "relative error " << worst << " > " << rtol << " at element " << worstAt << ": got "
           << got[worstAt] << ", expected " << want[worstAt];
}

// Adds `grad` to a copy of `prefill`: the expected result of a += backward.
inline std::vector<double> plus(const std::vector<double>& prefill,
                                const std::vector<double>& grad) {
    std::vector<double> r(prefill);
    for (std::size_t i = 0; i < r.size(); ++i)
        r[i] += grad[i];
    return r;
}

} // namespace zerolab::test
