// StoreError: the one exception type the run store throws. Its message names the
// store file and what went wrong (for SQLite failures also the statement and code);
// its kind tells an I/O failure (exit 1) from a bad or damaged file (exit 2).
#pragma once

#include <stdexcept>
#include <string>

namespace zerolab {

class StoreError : public std::runtime_error {
public:
    enum class Kind {
        Invalid, // not a run store, a damaged or foreign file, a misuse: bad input
        Io,      // the disk is full, a read or write failed, the file went away
    };
    explicit StoreError(const std::string& what, Kind kind = Kind::Invalid)
        : std::runtime_error(what), m_kind(kind) {}
    Kind kind() const { return m_kind; }
    bool isIo() const { return m_kind == Kind::Io; }

private:
    Kind m_kind;
};

} // namespace zerolab
