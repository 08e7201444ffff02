// meta.json of a checkpoint folder: what the checkpoint holds (step, tokens, run, world,
// stage, precision, model shape, and each file's size and checksum). Written with a
// checksum of its own content; read back with that checksum verified and every field
// range-checked, since a resume acts on these numbers (it deletes the run's stored
// steps after `step`).
#pragma once

#include "runtime/engine/fnv1a.h"
#include "runtime/model/model_shape.h"

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>

namespace zerolab {

// Corrupted, truncated or mismatched checkpoint (the one exception of checkpoint.h and
// this file); the message names the file.
class CheckpointError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct CheckpointMeta {
    long long step = 0;       // optimizer steps completed
    long long tokens = 0;     // cumulative tokens trained
    std::int64_t run_id = -1; // the run's number in the store that wrote it
    int world = 1;
    int stage = 0;
    std::string run_uuid; // the run's uuid (storage/run_uuid.h); empty before format 3
};

// One file of the folder as meta.json records it.
struct CheckpointFileSum {
    std::int64_t size = 0;
    std::string fnv1a64; // 16 lowercase hex digits
};

// Everything meta.json holds.
struct CheckpointManifest {
    CheckpointMeta meta;
    std::string precision; // toString(Precision)
    ModelShape shape;
    std::map<std::string, CheckpointFileSum> files; // by file name in the folder
    // The FNV-1a basis its files' checksums start from: kFnv1aLegacyBasis for formats 1-3,
    // the standard kFnv1aBasis from format 4 (what checkpointMetaText writes).
    std::uint64_t checksum_basis = kFnv1aBasis;
};

// Why a checkpoint of model `checkpoint` cannot resume a run of model `config`, or "":
// the first field of meta.json's "model" that differs, with both values
// ("model.n_kv_head: the checkpoint's is 8, the config's 4"). The attention kernel may
// differ: the model is the same (ModelShape::sameModel), only how attention is computed.
std::string checkpointModelMismatch(const ModelShape& checkpoint, const ModelShape& config);

// The file of rank r's optimizer shard: "optim-rank<r>.bin".
std::string checkpointOptimFileName(int rank);

// Tokens beyond 2^53 would lose exactness in the metric lines' JSON numbers.
inline constexpr long long kMaxCheckpointTokens = 1LL << 53;

// meta.json's text (format 5): the manifest and "fnv1a64", the checksum of the compact
// JSON of everything else. Format 3 added "run_uuid"; format 4 hashes from the standard
// FNV-1a basis (formats 2 and 3 from kFnv1aLegacyBasis, meta.json's own checksum too);
// format 5 records every field of the shape (the family, the attention kernel, the Llama
// fields) where formats 1-4 hold GPT-2's six.
std::string checkpointMetaText(const CheckpointManifest& m);

// Reads and verifies `path` (a meta.json). Throws CheckpointError naming
// the file, and the field with its value, when the file is missing, not JSON, fails its
// checksum, or holds a value out of range: format 1 to 5 (format 1, written before
// meta.json had a checksum, is range-checked only; formats 1 and 2 have no run_uuid, and
// meta.run_uuid is empty for them; formats 1-3 set checksum_basis to kFnv1aLegacyBasis);
// run_uuid a version-4 uuid (format 3 on); step 0..INT_MAX; tokens
// 0..kMaxCheckpointTokens; run_id >= 1; stage 0-3; precision "fp32" or "bf16"; a shape
// of positive ints within kMaxParamCount (format 5: a registered family, "standard" or
// "flash", the Llama fields >= 0, eps and theta > 0, a known rope_scaling type); world 1..kMaxWorld
// with a file entry for every rank's optimizer shard (rank 0's only at stage 0); each file a size
// >= 0 and 16 hex digits.
CheckpointManifest readCheckpointMeta(const std::string& path);

} // namespace zerolab
