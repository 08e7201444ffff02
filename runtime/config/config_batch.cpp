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

// micro x accumulation x world, each in 1..INT_MAX: up to 2^93, past a long long. Where
// the product overflows, LLONG_MAX, which every bound below refuses.
long long product(long long micro, long long accum, long long world) {
    long long p = 0;
    if (__builtin_mul_overflow(micro, accum, &p) || __builtin_mul_overflow(p, world, &p))
        return std::numeric_limits<long long>::max();
    return p;
}

// train_batch_size must fit an int: "train_batch_size N is too large".
Message tooLarge(long long train) {
    return Message(ZEROLAB_TR("ConfigCheck", "train_batch_size %1 is too large"),
                   {train == std::numeric_limits<long long>::max() ? std::string("above 2^63")
                                                                   : std::to_string(train)});
}

// DeepSpeed's assertion, word for word, then why in plain terms.
Message mismatchMessage(long long train, long long micro, long long accum, long long world,
                        Message why) {
    return Message(ZEROLAB_TR("ConfigCheck",
                              "Check batch related parameters. train_batch_size is not equal to "
                              "micro_batch_per_gpu * gradient_acc_step * world_size %1 != %2 * %3 "
                              "* %4 (%5)"),
                   {std::to_string(train), std::to_string(micro), std::to_string(accum),
                    std::to_string(world), std::move(why)});
}

// "T is not divisible by KEY V x world size W = P".
Message notDivisible(long long train, const char* key, long long value, long long world) {
    return Message(ZEROLAB_TR("ConfigCheck", "%1 is not divisible by %2 %3 x world size %4 = %5"),
                   {std::to_string(train), std::string(key), std::to_string(value),
                    std::to_string(world), std::to_string(value * world)});
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
        diags.error("", Message(ZEROLAB_TR("ConfigCheck", "world size must be >= 1, got %1"),
                                {std::to_string(*world)}));
        return std::nullopt;
    }
    const bool has_train = given(keys.train_batch_size);
    const bool has_micro = given(keys.micro_batch);
    const bool has_accum = given(keys.grad_accum);
    const long long train = keys.train_batch_size.value;
    const long long micro = keys.micro_batch.value;
    const long long accum = keys.grad_accum.value;

    if (!has_train && !has_micro) {
        if (keys.train_batch_size.state == State::Auto || keys.micro_batch.state == State::Auto)
            diags.error(kTrainKey,
                        Message(ZEROLAB_TR("ConfigCheck",
                                           "Either train_batch_size or "
                                           "train_micro_batch_size_per_gpu needs to be provided; "
                                           "\"auto\" cannot be resolved when neither is a "
                                           "number")));
        else
            diags.error(kTrainKey,
                        Message(ZEROLAB_TR("ConfigCheck", "Either train_batch_size or "
                                                          "train_micro_batch_size_per_gpu needs to "
                                                          "be provided")));
        return std::nullopt;
    }
    // Only one of train / micro given: DeepSpeed sets accumulation to 1, which
    // "auto" must not silently receive.
    if (!(has_train && has_micro) && !has_accum && keys.grad_accum.state == State::Auto) {
        diags.error(kAccumKey,
                    Message(ZEROLAB_TR("ConfigCheck", "\"auto\" cannot be resolved: give both %1 "
                                                      "and %2 as numbers, or a number here"),
                            {std::string(kTrainKey), std::string(kMicroKey)}));
        return std::nullopt;
    }

    long long w = world.value_or(1);
    if (!world && has_train && has_micro && has_accum) {
        if (train % (micro * accum) != 0) {
            diags.error(kTrainKey,
                        Message(ZEROLAB_TR("ConfigCheck",
                                           "Check batch related parameters: train_batch_size %1 "
                                           "must equal train_micro_batch_size_per_gpu %2 * "
                                           "gradient_accumulation_steps %3 * world size, but %1 "
                                           "is not a multiple of %4"),
                                {std::to_string(train), std::to_string(micro),
                                 std::to_string(accum), std::to_string(micro * accum)}));
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
        const long long p = product(micro, accum, w);
        if (train != p) {
            diags.error(kTrainKey,
                        mismatchMessage(train, micro, accum, w,
                                        Message(ZEROLAB_TR("ConfigCheck", "the product is %1"),
                                                {p == std::numeric_limits<long long>::max()
                                                     ? std::string("above 2^63")
                                                     : std::to_string(p)})));
            return std::nullopt;
        }
        return out;
    }

    long long m = micro, a = accum, t = train;
    Message why;
    if (has_train && has_micro) {
        a = train / micro / w;
        why = notDivisible(train, kMicroKey, micro, w);
    } else if (has_train && has_accum) {
        m = train / w / accum;
        why = notDivisible(train, kAccumKey, accum, w);
    } else if (has_micro && has_accum) {
        t = product(micro, accum, w);
    } else if (has_train) {
        a = 1;
        m = train / w;
        why = Message(ZEROLAB_TR("ConfigCheck", "%1 is not divisible by world size %2"),
                      {std::to_string(train), std::to_string(w)});
    } else {
        a = 1;
        t = product(micro, 1, w);
    }
    if (t > std::numeric_limits<int>::max()) {
        diags.error(kTrainKey, tooLarge(t));
        return std::nullopt;
    }
    if (m < 1 || a < 1 || t != product(m, a, w)) {
        diags.error(kTrainKey, mismatchMessage(t, m, a, w, why));
        return std::nullopt;
    }
    out.train_batch_size = static_cast<int>(t);
    out.micro_batch = static_cast<int>(m);
    out.grad_accum = static_cast<int>(a);
    return out;
}

} // namespace zerolab
