// zerolab's version, printed by every executable's --version and stored with each run.
#pragma once

#include <string_view>

namespace zerolab {

std::string_view version();

} // namespace zerolab
