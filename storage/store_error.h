// StoreError: the one exception type the run store throws. Its message names the
// store file and what went wrong (for SQLite failures also the statement and code).
#pragma once

#include <stdexcept>
#include <string>

namespace zerolab {

class StoreError : public std::runtime_error {
public:
    explicit StoreError(const std::string& what) : std::runtime_error(what) {}
};

} // namespace zerolab
