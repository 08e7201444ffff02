// The GUI's rule for the store: no SQLite call on the GUI thread. Every client worker
// (store, Lab, sweep) checks it before it touches a store, so a call that reaches a
// worker directly from the GUI thread instead of through its queued client is refused.
#pragma once

#include "storage/run_store.h"

#include <QString>

namespace zerolab {

// Throws StoreError ("<what>: a store call on the GUI thread ...") when called on the
// application's main thread (QCoreApplication's); no-op without an application.
void requireOffGuiThread(const char* what);

// RunStore::open(path, mode) after requireOffGuiThread.
RunStore openStoreOffGuiThread(const QString& path, OpenMode mode = OpenMode::ReadWrite);

} // namespace zerolab
