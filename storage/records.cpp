// Name <-> enum conversions of records.h; the names are the values the schema's
// CHECK constraints allow.
#include "storage/records.h"

#include <array>

namespace zerolab {

namespace {

constexpr std::array<std::string_view, 6> kRunStatusNames = {"running", "finished", "stopped",
                                                             "failed",  "lost",     "stalled"};
constexpr std::array<std::string_view, 3> kEventLevelNames = {"info", "warn", "error"};
constexpr std::array<std::string_view, 5> kCommandKindNames = {"pause", "resume", "checkpoint",
                                                               "set_lr", "stop"};

template <typename E, std::size_t N>
std::optional<E> fromName(const std::array<std::string_view, N>& names, std::string_view name) {
    for (std::size_t i = 0; i < N; ++i)
        if (names[i] == name)
            return static_cast<E>(i);
    return std::nullopt;
}

} // namespace

std::string_view runStatusName(RunStatus s) {
    return kRunStatusNames[static_cast<std::size_t>(s)];
}

std::string_view eventLevelName(EventLevel l) {
    return kEventLevelNames[static_cast<std::size_t>(l)];
}

std::string_view commandKindName(CommandKind k) {
    return kCommandKindNames[static_cast<std::size_t>(k)];
}

std::optional<RunStatus> runStatusFromName(std::string_view name) {
    return fromName<RunStatus>(kRunStatusNames, name);
}

std::optional<EventLevel> eventLevelFromName(std::string_view name) {
    return fromName<EventLevel>(kEventLevelNames, name);
}

std::optional<CommandKind> commandKindFromName(std::string_view name) {
    return fromName<CommandKind>(kCommandKindNames, name);
}

} // namespace zerolab
