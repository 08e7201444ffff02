// The GUI-thread check of store calls (gui/client/store_thread.h).
#include "gui/client/store_thread.h"

#include "storage/store_error.h"

#include <QCoreApplication>
#include <QThread>

#include <string>

namespace zerolab {

void requireOffGuiThread(const char* what) {
    const QCoreApplication* app = QCoreApplication::instance();
    if (app && QThread::currentThread() == app->thread())
        throw StoreError(std::string(what) +
                         ": a store call on the GUI thread (it goes through a client's worker, "
                         "gui/README.md)");
}

RunStore openStoreOffGuiThread(const QString& path, OpenMode mode) {
    requireOffGuiThread("open the store");
    return RunStore::open(path.toStdString(), mode);
}

} // namespace zerolab
