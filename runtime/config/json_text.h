// JSON from untrusted text, with bounds: nesting is refused past kMaxJsonDepth before
// anything recurses over it, a number that does not fit a double is an error naming
// its JSON path instead of an exception, and a value quoted in a message is cut short.
// Every reader of a config (the runtime, zerolab-plan, the GUI's editor) and of a
// checkpoint's meta.json parses through here.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace zerolab {

// Far beyond any config (DeepSpeed's nest four deep); nlohmann's copy and dump
// recurse once per level, so a deeper document is refused while parsing.
inline constexpr int kMaxJsonDepth = 64;

// Why text is not a usable JSON document. path: the JSON path of the value being read
// ("gradient_clipping", "model.x[0]"), empty at the top level; byte: 0-based offset of
// the failure, set for syntax errors (whose message is then the parser's reason alone).
// Messages are bounded: a long token is cut.
struct JsonTextError {
    std::string path;
    std::string message;
    std::optional<std::size_t> byte;
};

template <class Json> struct JsonText {
    std::optional<Json> doc; // set exactly when error is not
    std::optional<JsonTextError> error;
};

// A JSON value shown in a message: "two" -> "\"two\"", cut to at most 60 bytes ending
// in "...". Bounded in time and stack whatever the value's size or depth.
std::string describeJson(const nlohmann::json& value);

// `text` when it has at most `max_bytes` bytes, else its head ending in "..." within
// max_bytes, cut between UTF-8 characters (max_bytes >= 3).
std::string shortened(std::string_view text, std::size_t max_bytes);

namespace json_text_detail {

// The path of the value the parser is in, kept from the parser callback's events.
class PathTracker {
public:
    struct TooDeep {};

    // A container starts (its path is the current one). Throws TooDeep past the limit.
    void open(bool array) {
        if (m_frames.size() >= static_cast<std::size_t>(kMaxJsonDepth))
            throw TooDeep{};
        m_frames.push_back({array, 0, {}});
    }
    void key(std::string k) { m_frames.back().key = std::move(k); }
    // A value of the innermost container is complete (a scalar, or a closed container).
    void valueDone() {
        if (!m_frames.empty() && m_frames.back().array)
            ++m_frames.back().index;
    }
    void close() {
        m_frames.pop_back();
        valueDone();
    }
    std::string path() const;

private:
    struct Frame {
        bool array;
        std::size_t index;
        std::string key;
    };
    std::vector<Frame> m_frames;
};

// nlohmann's what() without its "[json.exception.KIND.N] " and position prefix.
std::string reasonOf(const std::string& what);

} // namespace json_text_detail

// Parses `text` into Json (nlohmann::json or nlohmann::ordered_json). Never throws on
// any input.
template <class Json> JsonText<Json> parseJsonText(std::string_view text) {
    using Event = typename Json::parse_event_t;
    json_text_detail::PathTracker tracker;
    auto callback = [&tracker](int, Event event, Json& parsed) {
        switch (event) {
        case Event::object_start:
            tracker.open(false);
            break;
        case Event::array_start:
            tracker.open(true);
            break;
        case Event::key:
            tracker.key(parsed.template get<std::string>());
            break;
        case Event::value:
            tracker.valueDone();
            break;
        case Event::object_end:
        case Event::array_end:
            tracker.close();
            break;
        }
        return true;
    };
    JsonText<Json> out;
    try {
        out.doc = Json::parse(text.begin(), text.end(), callback);
    } catch (const json_text_detail::PathTracker::TooDeep&) {
        out.error = JsonTextError{tracker.path(),
                                  "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels",
                                  std::nullopt};
    } catch (const typename Json::parse_error& e) {
        out.error =
            JsonTextError{{}, json_text_detail::reasonOf(e.what()), e.byte > 0 ? e.byte - 1 : 0};
    } catch (const typename Json::exception& e) {
        // out_of_range 406: a number beyond a double's range (1e999).
        out.error =
            JsonTextError{tracker.path(), json_text_detail::reasonOf(e.what()), std::nullopt};
    }
    return out;
}

} // namespace zerolab
