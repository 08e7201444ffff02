// Checkpoints: the model as an fp32 llm.c model file plus each rank's optimizer
// shard (m, v and the bf16 master), each with a checksum, written into a temporary
// folder and renamed into place so the previous checkpoint survives a crash or a
// full disk. Loading re-partitions the optimizer state for any world size and stage.
#pragma once

#include "runtime/comm/communicator.h"
#include "runtime/config/config.h"
#include "runtime/engine/checkpoint_meta.h"
#include "runtime/engine/zero_engine.h"

#include <stdexcept>
#include <string>

namespace zerolab {

// Writing a checkpoint failed (a full disk, an I/O error): an I/O failure, not bad input.
// The message names the file and errno. The partial step-<k>.tmp/ folder has been
// removed and every earlier checkpoint is untouched. Thrown on every rank together.
class CheckpointWriteError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Collective. Writes <run.checkpoint_dir>/run-<id>/step-<k>/ and returns that path
// (on every rank). All ranks must see the same filesystem path. Throws
// CheckpointWriteError on every rank when any rank's write fails.
std::string writeCheckpoint(const TrainConfig& config, ZeroEngine& engine, Communicator& comm,
                            const CheckpointMeta& meta);

// Collective. Verifies checksums and shape/precision, loads parameters and this rank's
// optimizer state (from however many ranks wrote it, at whatever stage), returns the
// checkpoint's meta.
CheckpointMeta loadCheckpoint(const std::string& path, const TrainConfig& config,
                              ZeroEngine& engine, Communicator& comm);

} // namespace zerolab
