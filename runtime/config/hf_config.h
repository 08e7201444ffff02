// A Hugging Face config.json of a LlamaForCausalLM, MistralForCausalLM or
// Qwen2ForCausalLM model, read into the numbers that decide its math, exactly as
// transformers reads them: a field the file leaves out takes that architecture's class
// default (and is listed in `defaulted`, so that no default is silent), a field that
// would change the math in a way zerolab does not compute is refused, naming the file,
// the JSON field and its value. Any other architecture is refused.
//
// It lives in config, not in model, because it is a JSON reader like the rest of config:
// it reads through readBoundedTextFile and parseJsonText, quotes values with
// describeJson, and says its findings as translatable Messages, which model (which
// depends on nothing but files) cannot use. The config section model.hf_config and
// zerolab-plan --hf-config, its users, are config and planner. docs/model.md, "Hugging
// Face files", says what is read and what is refused.
#pragma once

#include "runtime/text/message.h"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace zerolab {

enum class HfArchitecture { Llama, Mistral, Qwen2 };

// "LlamaForCausalLM", "MistralForCausalLM", "Qwen2ForCausalLM".
std::string_view hfArchitectureName(HfArchitecture a);

// transformers' rope_scaling (rope_type): none ("default" or null), "linear" (positions
// divided by factor) and "llama3" (Llama 3.1's frequency-dependent scaling). Others
// ("dynamic", "yarn", "longrope", ...) are refused.
enum class HfRopeType { None, Linear, Llama3 };

struct HfRopeScaling {
    HfRopeType type = HfRopeType::None;
    double factor = 1.0;                               // linear, llama3
    double low_freq_factor = 0.0;                      // llama3
    double high_freq_factor = 0.0;                     // llama3
    std::int64_t original_max_position_embeddings = 0; // llama3

    bool operator==(const HfRopeScaling&) const = default;
};

struct HfModelConfig {
    std::string file; // the path it was read from (the label given to parseHfConfig)
    HfArchitecture architecture = HfArchitecture::Llama;
    std::int64_t hidden_size = 0;
    std::int64_t intermediate_size = 0;
    std::int64_t num_hidden_layers = 0;
    std::int64_t num_attention_heads = 0;
    std::int64_t num_key_value_heads = 0; // divides num_attention_heads
    std::int64_t head_dim = 0;            // even (RoPE rotates pairs)
    std::int64_t vocab_size = 0;
    std::int64_t max_position_embeddings = 0;
    bool tie_word_embeddings = false;
    double rms_norm_eps = 0.0;
    double rope_theta = 0.0;
    HfRopeScaling rope_scaling;
    // Biases of the projections, as the architecture's modeling code builds them: Llama's
    // attention_bias (refused when true: it also gives o_proj a bias), Qwen2's q/k/v
    // biases (always, and never on o_proj), none for Mistral.
    bool qkv_bias = false;
    bool o_bias = false;
    bool mlp_bias = false;   // Llama's mlp_bias; refused when true
    std::string hidden_act;  // "silu", the only one accepted
    std::string torch_dtype; // as stored ("bfloat16"); "" when absent. Recorded only.
    // The attention window, where the architecture applies one: Mistral's sliding_window
    // (4096 in v0.1; null in v0.2 and later), Qwen2's only with use_sliding_window, which
    // is refused. zerolab's attention is full causal attention, which equals sliding-window
    // attention exactly while the sequence is no longer than the window: hfContextProblem
    // refuses a longer one.
    std::optional<std::int64_t> sliding_window;
    // nn.Embedding's padding_idx in transformers: that row is zeroed at init and gets no
    // gradient. Recorded for the model family to honour; null in every shipped preset.
    std::optional<std::int64_t> pad_token_id;
    // The fields the file leaves out, in reading order, each set to the architecture's
    // class default as transformers sets it (num_key_value_heads, head_dim, ...).
    std::vector<std::string> defaulted;
};

// Why a config.json is refused. field: the JSON field ("num_key_value_heads",
// "rope_scaling.rope_type"), empty for the file itself; text: the reason, naming the
// value. what(): "FILE: FIELD: TEXT" in English.
class HfConfigError : public std::runtime_error {
public:
    HfConfigError(std::string file, std::string field, Message text);
    const std::string& file() const { return m_file; }
    const std::string& field() const { return m_field; }
    const Message& text() const { return m_text; }

private:
    std::string m_file;
    std::string m_field;
    Message m_text;
};

// Reads `path` (a regular file of at most kMaxTextFileBytes). Throws HfConfigError.
HfModelConfig readHfConfig(const std::string& path);

// The same from a document's text; `file` names it in errors and in the result.
HfModelConfig parseHfConfig(std::string_view text, const std::string& file);

// Why `seq_len` tokens cannot be trained exactly with `config`, or nullopt: longer than
// max_position_embeddings, or longer than a sliding window (zerolab's attention sees the
// whole sequence; the window would hide the tokens before it).
std::optional<Message> hfContextProblem(const HfModelConfig& config, std::int64_t seq_len);

// RoPE's inverse frequencies, head_dim / 2 of them, as transformers computes them for
// the config's rope_scaling (_compute_default_rope_parameters, _compute_linear_scaling_
// rope_parameters, _compute_llama3_parameters), in double precision (transformers
// computes them in fp32: the two agree to fp32 rounding).
std::vector<double> hfRopeInverseFrequencies(const HfModelConfig& config);

} // namespace zerolab
