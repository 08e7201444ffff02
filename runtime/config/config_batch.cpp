// DeepSpeed's batch arithmetic (deepspeed/runtime/config.py, _set_batch_related_parameters and
// _batch_assertion) with the same assertion text, plus a plain divisibility note.
#include "runtime/config/config_batch.h"

#include <limits>
#include <string>

namespace zerolab {

namespace {

constexpr const char* kTrainKey = "train_batch_size";
constexpr const char* kMicroKey = "train_micro_batch_size_per_gpu";
constexpr const char* kAccumKey = "gradient_accumulation_steps";

BatchValue readOne(SectionReader& top, const char* key) {
    if (!top.has(key))
        return BatchValue::absent();
    if (top.isAuto(key))
        return BatchValue::automatic();
    auto v = top.getInt(key, 1, std::numeric_limits<int>::max());
    return v ? BatchValue::of(static_cast<int>(*v)) : BatchValue{BatchValue::State::Invalid, 0};
}

bool given(const BatchValue& v) {
    return v.state == BatchValue::State::Value;
}

// DeepSpeed's assertion, word for word, then why in plain terms.
std::string mismatchMessage(long long train, long long micro, long long accum, long long world,
                            const std::string& why) {
    return "Check batch related parameters. train_batch_size is not equal to "
           "micro_batch_per_gpu * gradient_acc_step * world_size " +
           std::to_string(train) + " != " + std::to_string(micro) + " * " + std::to_string(accum) +
           " * " + std::to_string(world) + " (" + why + ")";
}

} // namespace

BatchKeys readBatchKeys(SectionReader& top) {
    return {readOne(top, kTrainKey), readOne(top, kMicroKey), readOne(top, kAccumKey)};
}

std::optional<BatchConfig> resolveBatch(const BatchKeys& keys, std::optional<int> world,
                                        Diagnostics& diags) {
    using State = BatchValue::State;
    if (keys.train_batch_size.state == State::Invalid || keys.micro_batch.state == State::Invalid ||
        keys.grad_accum.state == State::Invalid)
        return std::nullopt; // the type error is already reported
    if (world && *world < 1) {
        diags.error("", "world size must be >= 1, got " + std::to_string(*world));
        return std::nullopt;
    }
    const bool has_train = given(keys.train_batch_size);
    const bool has_micro = given(keys.micro_batch);
    const bool has_accum = given(keys.grad_accum);
    const long long train = keys.train_batch_size.value;
    const long long micro = keys.micro_batch.value;
    const long long accum = keys.grad_accum.value;

    if (!has_train && !has_micro) {
        std::string msg = "Either train_batch_size or train_micro_batch_size_per_gpu needs to be "
                          "provided";
        if (keys.train_batch_size.state == State::Auto || keys.micro_batch.state == State::Auto)
            msg += "; \"auto\" cannot be resolved when neither is a number";
        diags.error(kTrainKey, msg);
        return std::nullopt;
    }
    // Only one of train / micro given: DeepSpeed sets accumulation to 1, which
    // "auto" must not silently receive.
    if (!(has_train && has_micro) && !has_accum && keys.grad_accum.state == State::Auto) {
        diags.error(kAccumKey, std::string("\"auto\" cannot be resolved: give both ") + kTrainKey +
                                   " and " + kMicroKey + " as numbers, or a number here");
        return std::nullopt;
    }

    long long w = world.value_or(1);
    if (!world && has_train && has_micro && has_accum) {
        if (train % (micro * accum) != 0) {
            diags.error(kTrainKey,
                        "Check batch related parameters: train_batch_size " +
                            std::to_string(train) + " must equal train_micro_batch_size_per_gpu " +
                            std::to_string(micro) + " * gradient_accumulation_steps " +
                            std::to_string(accum) + " * world size, but " + std::to_string(train) +
                            " is not a multiple of " + std::to_string(micro * accum));
            return std::nullopt;
        }
        w = train / (micro * accum);
    }

    BatchConfig out;
    out.world = static_cast<int>(w);
    if (has_train && has_micro && has_accum) {
        out.train_batch_size = static_cast<int>(train);
        out.micro_batch = static_cast<int>(micro);
        out.grad_accum = static_cast<int>(accum);
        if (train != micro * accum * w) {
            diags.error(kTrainKey,
                        mismatchMessage(train, micro, accum, w,
                                        "the product is " + std::to_string(micro * accum * w)));
            return std::nullopt;
        }
        return out;
    }

    long long m = micro, a = accum, t = train;
    std::string why;
    if (has_train && has_micro) {
        a = train / micro / w;
        why = std::to_string(train) + " is not divisible by train_micro_batch_size_per_gpu " +
              std::to_string(micro) + " x world size " + std::to_string(w) + " = " +
              std::to_string(micro * w);
    } else if (has_train && has_accum) {
        m = train / w / accum;
        why = std::to_string(train) + " is not divisible by gradient_accumulation_steps " +
              std::to_string(accum) + " x world size " + std::to_string(w) + " = " +
              std::to_string(accum * w);
    } else if (has_micro && has_accum) {
        t = micro * accum * w;
    } else if (has_train) {
        a = 1;
        m = train / w;
        why = std::to_string(train) + " is not divisible by world size " + std::to_string(w);
    } else {
        a = 1;
        t = micro * w;
    }
    if (m < 1 || a < 1 || t != m * a * w) {
        diags.error(kTrainKey, mismatchMessage(t, m, a, w, why));
        return std::nullopt;
    }
    if (t > std::numeric_limits<int>::max()) {
        diags.error(kTrainKey, "train_batch_size " + std::to_string(t) + " is too large");
        return std::nullopt;
    }
    out.train_batch_size = static_cast<int>(t);
    out.micro_batch = static_cast<int>(m);
    out.grad_accum = static_cast<int>(a);
    return out;
}

} // namespace zerolab
