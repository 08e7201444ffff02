// Batch-size inference: DeepSpeed's rule train_batch_size = micro x accumulation x
// world, with any one of the three left out (or "auto") and inferred from the rest.
// Internal to the config library; exposed for its tests.
#pragma once

#include "runtime/config/config.h"
#include "runtime/config/config_reader.h"

#include <optional>

namespace zerolab {

// One of the three batch keys as written in the config.
struct BatchValue {
    enum class State { Absent, Auto, Value, Invalid };
    State state = State::Absent;
    int value = 0;

    static BatchValue absent() { return {}; }
    static BatchValue automatic() { return {State::Auto, 0}; }
    static BatchValue of(int v) { return {State::Value, v}; }
};

struct BatchKeys {
    BatchValue train_batch_size;
    BatchValue micro_batch;
    BatchValue grad_accum;
};

// Reads the three top-level keys (absent, "auto" or an integer >= 1).
BatchKeys readBatchKeys(SectionReader& top);

// Resolves as DeepSpeed's _set_batch_related_parameters does, then checks the rule.
// world: the given data-parallel size; without it, the three numbers decide it when
// all are given, else it is 1. "auto" is resolved only where the other two decide
// it. Errors go to diags (path "train_batch_size" for the rule, the key itself for
// an unresolvable "auto"); returns nullopt after any error.
std::optional<BatchConfig> resolveBatch(const BatchKeys& keys, std::optional<int> world,
                                        Diagnostics& diags);

} // namespace zerolab
