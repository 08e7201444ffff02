// readHfConfig: a Hugging Face config.json read field by field as transformers'
// LlamaConfig, MistralConfig and Qwen2Config (and their modeling code) read it, the
// first problem thrown as an HfConfigError naming the file, the field and the value.
#include "runtime/config/hf_config.h"

#include "runtime/config/config_reader.h"
#include "runtime/config/json_text.h"
#include "runtime/files/bounded_file.h"
#include "runtime/model/model_shape.h"

#include <array>
#include <cmath>
#include <limits>
#include <numbers>

namespace zerolab {

namespace {

constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();

// What differs between the three architectures as transformers builds them: the class
// defaults of the fields a config.json may leave out, and the projection biases.
struct ArchInfo {
    HfArchitecture arch;
    std::string_view name;
    std::string_view model_type;
    std::int64_t default_kv_heads; // 0: num_attention_heads (LlamaConfig's None)
    std::int64_t default_max_positions;
    std::optional<std::int64_t> default_sliding_window;
};

// LlamaConfig(num_key_value_heads=None -> heads, max_position_embeddings=2048),
// MistralConfig(num_key_value_heads=8, max_position_embeddings=4096 * 32,
// sliding_window=4096), Qwen2Config(num_key_value_heads=32, max_position_embeddings=32768;
// sliding_window only with use_sliding_window).
constexpr std::array<ArchInfo, 3> kArchs = {{
    {HfArchitecture::Llama, "LlamaForCausalLM", "llama", 0, 2048, std::nullopt},
    {HfArchitecture::Mistral, "MistralForCausalLM", "mistral", 8, 4096 * 32, 4096},
    {HfArchitecture::Qwen2, "Qwen2ForCausalLM", "qwen2", 32, 32768, std::nullopt},
}};

// Defaults the three classes share: rms_norm_eps=1e-6, rope_theta=10000.0,
// tie_word_embeddings=False, hidden_act="silu".
constexpr double kDefaultRmsNormEps = 1e-6;
constexpr double kDefaultRopeTheta = 10000.0;

Message supportedList() {
    return Message("LlamaForCausalLM, MistralForCausalLM, Qwen2ForCausalLM");
}

// Reads the fields of one JSON object, throwing on the first bad one. A field that is
// absent or null is "absent": transformers treats null as not given.
class FieldReader {
public:
    FieldReader(const nlohmann::json& obj, std::string prefix, const std::string& file)
        : m_obj(obj), m_prefix(std::move(prefix)), m_file(file) {}

    std::string pathOf(std::string_view key) const { return joinPath(m_prefix, key); }

    const nlohmann::json* get(std::string_view key) const {
        const auto it = m_obj.find(std::string(key));
        return it == m_obj.end() || it->is_null() ? nullptr : &*it;
    }

    [[noreturn]] void refuse(std::string_view key, Message text) const {
        throw HfConfigError(m_file, pathOf(key), std::move(text));
    }

    [[noreturn]] void expected(std::string_view key, Message what) const {
        refuse(key, expectedGot(std::move(what), *get(key)));
    }

    // An integer (an integral number, as config's getInt) in [lo, hi].
    std::optional<std::int64_t> integer(std::string_view key, std::int64_t lo,
                                        std::int64_t hi) const {
        const nlohmann::json* v = get(key);
        if (v == nullptr)
            return std::nullopt;
        std::optional<std::int64_t> n;
        if (v->is_number_unsigned()) {
            const auto u = v->get<std::uint64_t>();
            if (u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
                n = static_cast<std::int64_t>(u);
        } else if (v->is_number_integer()) {
            n = v->get<std::int64_t>();
        } else if (v->is_number_float()) {
            const double d = v->get<double>();
            if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.0e15)
                n = static_cast<std::int64_t>(d);
        }
        if (!n || *n < lo || *n > hi)
            expected(key, describeIntRange(lo, hi));
        return n;
    }

    std::optional<std::int64_t> required(std::string_view key, std::int64_t lo,
                                         std::int64_t hi) const {
        if (get(key) == nullptr)
            refuse(key, Message(ZEROLAB_TR("HfConfig", "missing: every model's config.json "
                                                       "gives it, and it has no default that "
                                                       "could stand in for it")));
        return integer(key, lo, hi);
    }

    // A finite number accepted by `valid`, described by `what`.
    template <class Valid>
    std::optional<double> number(std::string_view key, Valid valid, const Message& what) const {
        const nlohmann::json* v = get(key);
        if (v == nullptr)
            return std::nullopt;
        if (!v->is_number() || !std::isfinite(v->get<double>()) || !valid(v->get<double>()))
            expected(key, what);
        return v->get<double>();
    }

    std::optional<bool> boolean(std::string_view key) const {
        const nlohmann::json* v = get(key);
        if (v == nullptr)
            return std::nullopt;
        if (!v->is_boolean())
            expected(key, Message(ZEROLAB_TR("HfConfig", "true or false")));
        return v->get<bool>();
    }

    std::optional<std::string> string(std::string_view key) const {
        const nlohmann::json* v = get(key);
        if (v == nullptr)
            return std::nullopt;
        if (!v->is_string())
            expected(key, Message(ZEROLAB_TR("HfConfig", "a string")));
        return v->get<std::string>();
    }

private:
    const nlohmann::json& m_obj;
    std::string m_prefix;
    const std::string& m_file;
};

const ArchInfo& readArchitecture(const FieldReader& r) {
    const ArchInfo* by_arch = nullptr;
    if (const nlohmann::json* a = r.get("architectures")) {
        if (!a->is_array() || a->size() != 1 || !(*a)[0].is_string())
            r.expected("architectures",
                       Message(ZEROLAB_TR("HfConfig", "a list of one architecture (%1)"),
                               {supportedList()}));
        const std::string name = (*a)[0].get<std::string>();
        for (const ArchInfo& info : kArchs)
            if (info.name == name)
                by_arch = &info;
        if (by_arch == nullptr)
            r.refuse("architectures",
                     Message(ZEROLAB_TR("HfConfig", "%1 is not supported: zerolab reads %2"),
                             {describeJson((*a)[0]), supportedList()}));
    }
    const std::optional<std::string> type = r.string("model_type");
    if (type) {
        const ArchInfo* by_type = nullptr;
        for (const ArchInfo& info : kArchs)
            if (info.model_type == *type)
                by_type = &info;
        if (by_type == nullptr)
            r.refuse("model_type",
                     Message(ZEROLAB_TR("HfConfig", "%1 is not supported: zerolab reads the "
                                                    "model types llama, mistral and qwen2"),
                             {describeJson(*r.get("model_type"))}));
        if (by_arch != nullptr && by_arch != by_type)
            r.refuse("model_type",
                     Message(ZEROLAB_TR("HfConfig", "%1 contradicts architectures (%2, whose "
                                                    "model type is \"%3\")"),
                             {describeJson(*r.get("model_type")), std::string(by_arch->name),
                              std::string(by_arch->model_type)}));
        by_arch = by_type;
    }
    if (by_arch == nullptr)
        r.refuse("architectures",
                 Message(ZEROLAB_TR("HfConfig", "missing, and so is model_type: the file does "
                                                "not say which model it describes")));
    return *by_arch;
}

// rope_scaling (or transformers 5's rope_parameters): its type under "rope_type" or the
// older "type", and the parameters that type reads.
HfRopeScaling readRopeScaling(const FieldReader& r) {
    HfRopeScaling s;
    const nlohmann::json* type_json = r.get("rope_type");
    std::string_view type_key = "rope_type";
    if (type_json == nullptr) {
        type_json = r.get("type");
        type_key = "type";
    }
    if (type_json == nullptr)
        r.refuse("rope_type", Message(ZEROLAB_TR("HfConfig", "missing: the scaling's type "
                                                             "(rope_type or type) is not given")));
    const std::optional<std::string> type = r.string(type_key);
    if (*type == "default")
        return s;
    const auto at_least_one = [](double v) { return v >= 1.0; };
    const Message at_least_one_text(ZEROLAB_TR("HfConfig", "a number >= 1"));
    const auto required_number = [&](std::string_view key, auto valid, const Message& what) {
        if (r.get(key) == nullptr)
            r.refuse(key,
                     Message(ZEROLAB_TR("HfConfig", "missing: rope_type %1 needs it"), {*type}));
        return *r.number(key, valid, what);
    };
    if (*type == "linear") {
        s.type = HfRopeType::Linear;
        s.factor = required_number("factor", at_least_one, at_least_one_text);
        return s;
    }
    if (*type == "llama3") {
        s.type = HfRopeType::Llama3;
        s.factor = required_number("factor", at_least_one, at_least_one_text);
        s.low_freq_factor = required_number(
            "low_freq_factor", [](double v) { return v > 0; },
            Message(ZEROLAB_TR("HfConfig", "a number > 0")));
        const double low = s.low_freq_factor;
        // Equal factors divide by zero in transformers' smoothing: refused, not guessed.
        s.high_freq_factor = required_number(
            "high_freq_factor", [low](double v) { return v > low; },
            Message(ZEROLAB_TR("HfConfig", "a number > low_freq_factor (%1)"),
                    {describeJson(low)}));
        if (r.get("original_max_position_embeddings") == nullptr)
            r.refuse("original_max_position_embeddings",
                     Message(ZEROLAB_TR("HfConfig", "missing: rope_type %1 needs it"), {*type}));
        s.original_max_position_embeddings =
            *r.integer("original_max_position_embeddings", 1, kIntMax);
        return s;
    }
    r.refuse(type_key,
             Message(ZEROLAB_TR("HfConfig", "%1 is not supported: zerolab computes rotary "
                                            "position embedding unscaled, \"linear\" or "
                                            "\"llama3\"; any other scaling changes the math"),
                     {describeJson(*type_json)}));
}

// Parameters counted with overflow checks, to refuse a shape whose products do not fit
// (kMaxParamCount, as model_shape.h bounds a GPT-2). Only a bound: the model family
// counts ψ.
bool fitsParamBound(const HfModelConfig& c) {
    const std::int64_t h = c.hidden_size;
    std::int64_t total = 0;
    bool overflow = false;
    const auto product = [&overflow](std::int64_t a, std::int64_t b) {
        std::int64_t p = 0;
        overflow = overflow || __builtin_mul_overflow(a, b, &p);
        return p;
    };
    const auto add = [&overflow, &total](std::int64_t n) {
        overflow = overflow || __builtin_add_overflow(total, n, &total);
    };
    // Per layer: q and o, k and v, the three MLP matrices, two norms.
    const std::int64_t layer_parts[] = {product(product(c.num_attention_heads, c.head_dim), 2 * h),
                                        product(product(c.num_key_value_heads, c.head_dim), 2 * h),
                                        product(h, 3 * c.intermediate_size), 2 * h};
    for (const std::int64_t part : layer_parts)
        add(product(part, c.num_hidden_layers));
    add(product(c.vocab_size, h * (c.tie_word_embeddings ? 1 : 2)));
    return !overflow && total <= kMaxParamCount;
}

} // namespace

std::string_view hfArchitectureName(HfArchitecture a) {
    for (const ArchInfo& info : kArchs)
        if (info.arch == a)
            return info.name;
    return "?";
}

HfConfigError::HfConfigError(std::string file, std::string field, Message text)
    : std::runtime_error(file + ": " + (field.empty() ? std::string() : field + ": ") +
                         renderEnglish(text)),
      m_file(std::move(file)), m_field(std::move(field)), m_text(std::move(text)) {}

HfModelConfig readHfConfig(const std::string& path) {
    const BoundedFileText read = readBoundedTextFile(path);
    if (!read.text)
        throw HfConfigError(path, {}, Message(read.error));
    return parseHfConfig(*read.text, path);
}

HfModelConfig parseHfConfig(std::string_view text, const std::string& file) {
    const JsonText<nlohmann::json> parsed = parseJsonText<nlohmann::json>(text);
    if (parsed.error) {
        const JsonTextError& e = *parsed.error;
        Message why = e.byte ? Message(ZEROLAB_TR("HfConfig", "not JSON: %1 (at byte %2)"),
                                       {e.message, std::to_string(*e.byte)})
                             : Message(ZEROLAB_TR("HfConfig", "not JSON: %1"), {e.message});
        throw HfConfigError(file, e.path, std::move(why));
    }
    const nlohmann::json& doc = *parsed.doc;
    if (!doc.is_object())
        throw HfConfigError(file, {},
                            expectedGot(Message(ZEROLAB_TR("HfConfig", "a JSON object")), doc));
    const FieldReader r(doc, {}, file);

    HfModelConfig c;
    c.file = file;
    const ArchInfo& arch = readArchitecture(r);
    c.architecture = arch.arch;
    const auto defaulted = [&c](std::string_view key) { c.defaulted.emplace_back(key); };

    c.hidden_size = *r.required("hidden_size", 1, kIntMax);
    c.intermediate_size = *r.required("intermediate_size", 1, kIntMax);
    c.num_hidden_layers = *r.required("num_hidden_layers", 1, kIntMax);
    c.num_attention_heads = *r.required("num_attention_heads", 1, kIntMax);
    c.vocab_size = *r.required("vocab_size", 1, kIntMax);

    if (auto kv = r.integer("num_key_value_heads", 1, kIntMax)) {
        c.num_key_value_heads = *kv;
    } else {
        c.num_key_value_heads =
            arch.default_kv_heads > 0 ? arch.default_kv_heads : c.num_attention_heads;
        defaulted("num_key_value_heads");
    }
    if (c.num_attention_heads % c.num_key_value_heads != 0)
        r.refuse("num_key_value_heads",
                 Message(ZEROLAB_TR("HfConfig", "%1 does not divide num_attention_heads (%2): "
                                                "grouped-query attention shares each key/value "
                                                "head among a whole number of query heads"),
                         {std::to_string(c.num_key_value_heads),
                          std::to_string(c.num_attention_heads)}));

    // All three: head_dim if given, else hidden_size // num_attention_heads (floor, as
    // transformers divides).
    if (auto hd = r.integer("head_dim", 1, kIntMax)) {
        c.head_dim = *hd;
    } else {
        c.head_dim = c.hidden_size / c.num_attention_heads;
        defaulted("head_dim");
    }
    if (c.head_dim % 2 != 0 || c.head_dim < 2)
        r.refuse("head_dim",
                 Message(ZEROLAB_TR("HfConfig", "%1 is odd (or 0): rotary position embedding "
                                                "rotates pairs of dimensions, so a head's "
                                                "dimension must be even"),
                         {std::to_string(c.head_dim) +
                          (r.get("head_dim") ? "" : " (hidden_size / num_attention_heads)")}));

    if (auto n = r.integer("max_position_embeddings", 1, kIntMax)) {
        c.max_position_embeddings = *n;
    } else {
        c.max_position_embeddings = arch.default_max_positions;
        defaulted("max_position_embeddings");
    }
    if (auto tie = r.boolean("tie_word_embeddings")) {
        c.tie_word_embeddings = *tie;
    } else {
        c.tie_word_embeddings = false;
        defaulted("tie_word_embeddings");
    }
    const Message positive(ZEROLAB_TR("HfConfig", "a number > 0"));
    const auto is_positive = [](double v) { return v > 0; };
    if (auto eps = r.number("rms_norm_eps", is_positive, positive)) {
        c.rms_norm_eps = *eps;
    } else {
        c.rms_norm_eps = kDefaultRmsNormEps;
        defaulted("rms_norm_eps");
    }

    // Rotary position embedding: transformers 5 keeps rope_theta and the scaling together
    // in rope_parameters; earlier versions write rope_theta and rope_scaling.
    if (const nlohmann::json* params = r.get("rope_parameters")) {
        if (!params->is_object())
            r.expected("rope_parameters", Message(ZEROLAB_TR("HfConfig", "an object")));
        const FieldReader pr(*params, "rope_parameters", file);
        if (pr.get("rope_theta") == nullptr)
            pr.refuse("rope_theta",
                      Message(ZEROLAB_TR("HfConfig", "missing: rope_parameters must give it")));
        c.rope_theta = *pr.number("rope_theta", is_positive, positive);
        c.rope_scaling = readRopeScaling(pr);
        if (auto f = pr.number("partial_rotary_factor", is_positive, positive); f && *f != 1.0)
            pr.refuse("partial_rotary_factor",
                      Message(ZEROLAB_TR("HfConfig", "%1 is not supported: zerolab rotates "
                                                     "every dimension of a head"),
                              {describeJson(*f)}));
    } else {
        if (auto theta = r.number("rope_theta", is_positive, positive)) {
            c.rope_theta = *theta;
        } else {
            c.rope_theta = kDefaultRopeTheta;
            defaulted("rope_theta");
        }
        if (const nlohmann::json* scaling = r.get("rope_scaling")) {
            if (!scaling->is_object())
                r.expected("rope_scaling", Message(ZEROLAB_TR("HfConfig", "null or an object")));
            c.rope_scaling = readRopeScaling(FieldReader(*scaling, "rope_scaling", file));
        }
    }
    if (auto f = r.number("partial_rotary_factor", is_positive, positive); f && *f != 1.0)
        r.refuse("partial_rotary_factor",
                 Message(ZEROLAB_TR("HfConfig", "%1 is not supported: zerolab rotates every "
                                                "dimension of a head"),
                         {describeJson(*f)}));

    if (auto act = r.string("hidden_act")) {
        if (*act != "silu")
            r.refuse("hidden_act",
                     Message(ZEROLAB_TR("HfConfig", "%1 is not supported: zerolab's SwiGLU "
                                                    "MLP computes silu(gate) * up"),
                             {describeJson(*r.get("hidden_act"))}));
        c.hidden_act = *act;
    } else {
        c.hidden_act = "silu";
        defaulted("hidden_act");
    }
    if (auto p = r.number(
            "attention_dropout", [](double v) { return v >= 0 && v < 1; },
            Message(ZEROLAB_TR("HfConfig", "a number in [0, 1)")));
        p && *p != 0.0)
        r.refuse("attention_dropout",
                 Message(ZEROLAB_TR("HfConfig", "%1 is not supported: zerolab trains without "
                                                "dropout"),
                         {describeJson(*p)}));

    switch (arch.arch) {
    case HfArchitecture::Llama: {
        // LlamaAttention: q, k, v and o all take bias=config.attention_bias.
        const bool attention_bias = r.boolean("attention_bias").value_or(false);
        if (attention_bias)
            r.refuse("attention_bias",
                     Message(ZEROLAB_TR("HfConfig", "true is not supported: it gives o_proj a "
                                                    "bias too, and zerolab's attention has "
                                                    "biases on q, k and v only (Qwen2's)")));
        if (r.boolean("mlp_bias").value_or(false))
            r.refuse("mlp_bias", Message(ZEROLAB_TR("HfConfig", "true is not supported: "
                                                                "zerolab's SwiGLU MLP has "
                                                                "no biases")));
        break;
    }
    case HfArchitecture::Qwen2:
        // Qwen2Attention: q/k/v_proj bias=True, o_proj bias=False, whatever the config.
        c.qkv_bias = true;
        if (r.boolean("use_sliding_window").value_or(false))
            r.refuse("use_sliding_window",
                     Message(ZEROLAB_TR("HfConfig", "true is not supported: Qwen2 then limits "
                                                    "attention to sliding_window tokens from "
                                                    "layer max_window_layers on, and "
                                                    "zerolab's attention sees the whole "
                                                    "sequence")));
        break;
    case HfArchitecture::Mistral:
        // MistralConfig: sliding_window=4096 unless given (null: none).
        if (r.get("sliding_window") != nullptr)
            c.sliding_window = r.integer("sliding_window", 1, kIntMax);
        else if (doc.contains("sliding_window"))
            c.sliding_window = std::nullopt;
        else {
            c.sliding_window = arch.default_sliding_window;
            defaulted("sliding_window");
        }
        break;
    }

    if (auto dtype = r.string("torch_dtype"))
        c.torch_dtype = *dtype;
    else if (auto dt = r.string("dtype")) // transformers 4.56 and later
        c.torch_dtype = *dt;
    c.pad_token_id = r.integer("pad_token_id", 0, c.vocab_size - 1);

    if (!fitsParamBound(c))
        throw HfConfigError(
            file, {},
            Message(ZEROLAB_TR("HfConfig", "the shape (hidden_size %1, "
                                           "intermediate_size %2, %3 layers, "
                                           "vocab_size %4) makes more than "
                                           "2^48 parameters"),
                    {std::to_string(c.hidden_size), std::to_string(c.intermediate_size),
                     std::to_string(c.num_hidden_layers), std::to_string(c.vocab_size)}));
    return c;
}

std::optional<Message> hfContextProblem(const HfModelConfig& c, std::int64_t seq_len) {
    if (seq_len > c.max_position_embeddings)
        return Message(
            ZEROLAB_TR("HfConfig", "a sequence of %1 tokens exceeds "
                                   "max_position_embeddings (%2) in %3"),
            {std::to_string(seq_len), std::to_string(c.max_position_embeddings), c.file});
    if (c.sliding_window && seq_len > *c.sliding_window)
        return Message(ZEROLAB_TR("HfConfig", "a sequence of %1 tokens exceeds the sliding "
                                              "window (%2) of %3 in %4: zerolab's attention "
                                              "sees the whole sequence, which equals the "
                                              "model's attention only up to the window"),
                       {std::to_string(seq_len), std::to_string(*c.sliding_window),
                        std::string(hfArchitectureName(c.architecture)), c.file});
    return std::nullopt;
}

std::vector<double> hfRopeInverseFrequencies(const HfModelConfig& c) {
    const std::int64_t dim = c.head_dim;
    std::vector<double> inv(static_cast<std::size_t>(dim / 2));
    for (std::size_t i = 0; i < inv.size(); ++i)
        inv[i] =
            1.0 / std::pow(c.rope_theta, static_cast<double>(2 * i) / static_cast<double>(dim));
    const HfRopeScaling& s = c.rope_scaling;
    switch (s.type) {
    case HfRopeType::None:
        break;
    case HfRopeType::Linear:
        for (double& f : inv)
            f /= s.factor;
        break;
    case HfRopeType::Llama3: {
        // _compute_llama3_parameters: long wavelengths divided by factor, short ones kept,
        // the band between smoothly interpolated.
        const auto old_context = static_cast<double>(s.original_max_position_embeddings);
        const double low_freq_wavelen = old_context / s.low_freq_factor;
        const double high_freq_wavelen = old_context / s.high_freq_factor;
        for (double& f : inv) {
            const double wavelen = 2 * std::numbers::pi / f;
            const double scaled = wavelen > low_freq_wavelen ? f / s.factor : f;
            const double smooth = (old_context / wavelen - s.low_freq_factor) /
                                  (s.high_freq_factor - s.low_freq_factor);
            const double smoothed = (1 - smooth) * scaled / s.factor + smooth * scaled;
            const bool medium = !(wavelen < high_freq_wavelen) && !(wavelen > low_freq_wavelen);
            f = medium ? smoothed : scaled;
        }
        break;
    }
    }
    return inv;
}

} // namespace zerolab
