// The stored status words, listed for lupdate under the context "Status", translated at
// the moment they are shown.
#include "gui/core/status_label.h"

#include <QCoreApplication>

namespace zerolab {

namespace {
// Every word of kRunStatusNames, kEventLevelNames (storage/records.cpp) and
// kSweepStatusNames, kTrialStatusNames (storage/sweep_store.cpp).
const char* const kStatusWords[] = {
    QT_TRANSLATE_NOOP("Status", "running"), QT_TRANSLATE_NOOP("Status", "finished"),
    QT_TRANSLATE_NOOP("Status", "stopped"), QT_TRANSLATE_NOOP("Status", "failed"),
    QT_TRANSLATE_NOOP("Status", "lost"),    QT_TRANSLATE_NOOP("Status", "stalled"),
    QT_TRANSLATE_NOOP("Status", "info"),    QT_TRANSLATE_NOOP("Status", "warn"),
    QT_TRANSLATE_NOOP("Status", "error"),   QT_TRANSLATE_NOOP("Status", "pending"),
    QT_TRANSLATE_NOOP("Status", "timeout"), QT_TRANSLATE_NOOP("Status", "oom"),
    QT_TRANSLATE_NOOP("Status", "pruned"),  QT_TRANSLATE_NOOP("Status", "invalid"),
    QT_TRANSLATE_NOOP("Status", "skipped"),
};
} // namespace

QString statusLabel(std::string_view name) {
    for (const char* word : kStatusWords)
        if (name == word)
            return QCoreApplication::translate("Status", word);
    return QString::fromUtf8(name.data(), qsizetype(name.size()));
}

} // namespace zerolab
