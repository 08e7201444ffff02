// Run UUIDs: the identity of a run across stores and checkpoints. A run number is only
// unique within one store; the UUID (random, RFC 4122 version 4, lower-case text) is
// stored with the run and in every checkpoint, and a resume binds by it.
#pragma once

#include <string>
#include <string_view>

namespace zerolab {

// A new version-4 UUID from /dev/urandom, e.g. "0f8e4c6a-2b1d-4e7f-9a3c-5d6e7f8091a2".
// Throws StoreError when /dev/urandom cannot be read.
std::string newRunUuid();

// True for 36 characters 8-4-4-4-12 of lower-case hex digits with version 4 and the
// RFC 4122 variant (what newRunUuid and migrate_v5.sql make).
bool isRunUuid(std::string_view s);

} // namespace zerolab
