// The Setup view's forecast as JSON: the bytes its chart draws per ledger category for
// stages 0-3, with the device, the reserve and the verdict, for scripts and docs
// (zerolab --config F --print-forecast).
#pragma once

#include <nlohmann/json.hpp>

namespace zerolab {

class SetupView;

// Null when the view has no valid config (its diagnostics say why).
nlohmann::json forecastJson(const SetupView& view);

} // namespace zerolab
