// The config's model keys the Setup form writes when it points the model elsewhere: the
// Hugging Face config key and the shape keys it replaces. One place, so that a renamed
// key (model.hf_config lands with the llama-config branch, docs/config.md) is one edit.
#pragma once

#include <QLatin1StringView>

#include <array>

namespace zerolab::model_keys {

// model.hf_config: a Hugging Face config.json read into a Llama shape.
inline constexpr QLatin1StringView kHfConfig{"model.hf_config"};
inline constexpr QLatin1StringView kPreset{"model.preset"};

// Every key that names a shape: GPT-2's custom shape and the Llama family's custom keys.
// A preset, a custom shape and an HF config each remove the others' keys.
inline constexpr std::array<QLatin1StringView, 13> kShapeKeys = {
    QLatin1StringView{"model.n_layer"},
    QLatin1StringView{"model.n_head"},
    QLatin1StringView{"model.n_embd"},
    QLatin1StringView{"model.seq_len"},
    QLatin1StringView{"model.vocab_size"},
    QLatin1StringView{"model.family"},
    QLatin1StringView{"model.n_kv_head"},
    QLatin1StringView{"model.head_dim"},
    QLatin1StringView{"model.intermediate_size"},
    QLatin1StringView{"model.tie_word_embeddings"},
    QLatin1StringView{"model.qkv_bias"},
    QLatin1StringView{"model.rope_theta"},
    QLatin1StringView{"model.rms_norm_eps"},
};

} // namespace zerolab::model_keys
