// The app's file dialogs: Qt's own dialog with an icon provider that names files by their
// suffix only, so that listing a folder never opens a file in it. The GUI holds the run
// store open through SQLite, whose locks are POSIX locks of the whole process: any other
// descriptor of the store (or its -wal, -shm) closed in this process drops them, and the
// next zerolab-train to close its connection takes the store for unused and deletes the
// WAL under the GUI's connections (issue 27 item 1). A native (GTK) dialog or Qt's default
// icon provider reads every listed file to guess its type; these never do.
#pragma once

#include <QString>

class QWidget;

namespace zerolab {

// Like QFileDialog::getOpenFileName: the chosen path, empty when cancelled.
QString openFileName(QWidget* parent, const QString& caption, const QString& dir = {},
                     const QString& filter = {});
// Like QFileDialog::getSaveFileName (asks before overwriting).
QString saveFileName(QWidget* parent, const QString& caption, const QString& dir = {},
                     const QString& filter = {});
// Like QFileDialog::getExistingDirectory.
QString existingDirectory(QWidget* parent, const QString& caption, const QString& dir = {});

} // namespace zerolab
