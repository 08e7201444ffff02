// hfModelShape and hfConfigJson: transformers' fields to a Llama-family shape and back,
// field for field, so that a config.json, a preset and an exported model agree.
#include "runtime/config/hf_shape.h"

#include <filesystem>
#include <limits>
#include <stdexcept>

namespace zerolab {

namespace {

RopeScalingSpec ropeOf(const HfRopeScaling& r) {
    RopeScalingSpec s;
    switch (r.type) {
    case HfRopeType::None:
        return s;
    case HfRopeType::Linear:
        s.type = RopeScalingType::Linear;
        s.factor = r.factor;
        return s;
    case HfRopeType::Llama3:
        s.type = RopeScalingType::Llama3;
        s.factor = r.factor;
        s.low_freq_factor = r.low_freq_factor;
        s.high_freq_factor = r.high_freq_factor;
        s.original_max_position_embeddings = static_cast<int>(r.original_max_position_embeddings);
        return s;
    }
    return s;
}

bool endsWith(const std::string& s, std::string_view suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix.data(), suffix.size()) == 0;
}

} // namespace

ModelShape hfModelShape(const HfModelConfig& c) {
    if (c.pad_token_id)
        throw HfConfigError(
            c.file, "pad_token_id",
            Message(ZEROLAB_TR("HfConfig", "%1 is not supported: transformers keeps that "
                                           "embedding row at zero and out of the gradient, "
                                           "which zerolab does not do; set it to null"),
                    {std::to_string(*c.pad_token_id)}));
    // readHfConfig bounds every size by INT_MAX; the context is the shorter of the
    // positions and the window.
    std::int64_t context = c.max_position_embeddings;
    if (c.sliding_window && *c.sliding_window < context)
        context = *c.sliding_window;
    ModelShape s;
    s.family = Family::Llama;
    s.n_layer = static_cast<int>(c.num_hidden_layers);
    s.n_head = static_cast<int>(c.num_attention_heads);
    s.n_embd = static_cast<int>(c.hidden_size);
    s.seq_len = static_cast<int>(context);
    s.vocab_size = static_cast<int>(c.vocab_size);
    s.padded_vocab_size = s.vocab_size;
    s.n_kv_head = static_cast<int>(c.num_key_value_heads);
    s.head_dim = static_cast<int>(c.head_dim);
    s.ffn_dim = static_cast<int>(c.intermediate_size);
    s.tied_head = c.tie_word_embeddings;
    s.qkv_bias = c.qkv_bias;
    s.norm_eps = c.rms_norm_eps;
    s.rope_theta = c.rope_theta;
    s.rope_scaling = ropeOf(c.rope_scaling);
    s.attention = AttentionKernel::Flash;
    return s;
}

ModelShape readHfModelShape(const std::string& path) {
    return hfModelShape(readHfConfig(path));
}

nlohmann::json hfConfigJson(const ModelShape& s) {
    if (s.family != Family::Llama)
        throw std::invalid_argument("hfConfigJson: not a Llama-family shape");
    const bool qwen = s.qkv_bias;
    nlohmann::json j = {
        {"architectures", {qwen ? "Qwen2ForCausalLM" : "LlamaForCausalLM"}},
        {"model_type", qwen ? "qwen2" : "llama"},
        {"hidden_act", "silu"},
        {"hidden_size", s.n_embd},
        {"intermediate_size", s.ffn_dim},
        {"num_hidden_layers", s.n_layer},
        {"num_attention_heads", s.n_head},
        {"num_key_value_heads", s.kvHeads()},
        {"head_dim", s.headDim()},
        {"vocab_size", s.vocab_size},
        {"max_position_embeddings", s.seq_len},
        {"tie_word_embeddings", s.tied_head},
        {"rms_norm_eps", s.norm_eps},
        {"rope_theta", s.rope_theta},
        {"attention_dropout", 0.0},
        {"torch_dtype", "float32"},
    };
    if (!qwen) {
        j["attention_bias"] = false;
        j["mlp_bias"] = false;
    } else {
        j["use_sliding_window"] = false;
    }
    const RopeScalingSpec& r = s.rope_scaling;
    switch (r.type) {
    case RopeScalingType::None:
        j["rope_scaling"] = nullptr;
        break;
    case RopeScalingType::Linear:
        j["rope_scaling"] = {{"rope_type", "linear"}, {"factor", r.factor}};
        break;
    case RopeScalingType::Llama3:
        j["rope_scaling"] = {
            {"rope_type", "llama3"},
            {"factor", r.factor},
            {"low_freq_factor", r.low_freq_factor},
            {"high_freq_factor", r.high_freq_factor},
            {"original_max_position_embeddings", r.original_max_position_embeddings}};
        break;
    }
    return j;
}

std::string hfConfigBeside(const std::string& weights_path) {
    return (std::filesystem::path(weights_path).parent_path() / "config.json").string();
}

bool isHfWeightsPath(const std::string& path) {
    return endsWith(path, ".safetensors") || endsWith(path, ".json");
}

} // namespace zerolab
