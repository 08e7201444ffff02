// Central finite differences for the double references' backward passes: a scalar loss
// L = sum(R * out) with random R, differenced element by element.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

namespace zerolab::test {

inline double dot(const std::vector<double>& a, const std::vector<double>& b) {
    double s = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i)
        s += a[i] * b[i];
    return s;
}

// Compares grad[i] with (L(x+h e_i) - L(x-h e_i)) / 2h for every element of x.
// In double with h = 1e-5 the difference quotient is good to ~1e-9 here.
inline void expectGradient(const char* what, std::vector<double>& x,
                           const std::vector<double>& grad, const std::function<double()>& loss) {
    constexpr double kH = 1e-5, kTol = 1e-6;
    ASSERT_EQ(x.size(), grad.size()) << what;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double saved = x[i];
        x[i] = saved + kH;
        const double up = loss();
        x[i] = saved - kH;
        const double down = loss();
        x[i] = saved;
        const double numeric = (up - down) / (2 * kH);
        EXPECT_NEAR(grad[i], numeric, kTol * std::max(1.0, std::abs(numeric)))
            << what << " element " << i;
    }
}

} // namespace zerolab::test
