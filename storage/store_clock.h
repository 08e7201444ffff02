// The store's clock: Unix seconds as a double, the unit of every *_at and time column.
#pragma once

#include <chrono>

namespace zerolab {

inline double unixNow() {
    using namespace std::chrono;
    return duration<double>(system_clock::now().time_since_epoch()).count();
}

} // namespace zerolab
