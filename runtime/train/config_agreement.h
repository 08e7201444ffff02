// Every rank must run the same config (issue 29 §8): ranks started with different --steps
// or files (an MPMD launch, a config that differs between hosts) ran on, and the first
// rank to finish left the others waiting in a collective, misreported as "a wedged device
// or transport". At start-up each rank's resolved settings are hashed and compared over
// the communicator; a mismatch is refused naming the ranks and the differing keys.
#pragma once

#include "runtime/comm/communicator.h"
#include "runtime/config/config.h"
#include "runtime/train/trainer.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace zerolab {

// What a rank runs: the resolved config, and the command line's overrides of it that
// every rank must share (--steps, --resume).
nlohmann::json rankSettings(const TrainConfig& config, const TrainOptions& options);

// Collective (every rank calls it): nullopt when every rank's settings hash alike; else,
// on every rank, the message: "the ranks resolved different configs: rank 1 differs from
// rank 0 in run.steps (3, rank 0: 5); ...". Only on a mismatch are the settings gathered.
std::optional<std::string> configMismatch(Communicator& comm, const nlohmann::json& mine);

} // namespace zerolab
