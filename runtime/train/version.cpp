// The version comes from CMake's project(VERSION).
#include "runtime/train/version.h"

namespace zerolab {

std::string_view version() {
    return ZEROLAB_VERSION;
}

} // namespace zerolab
