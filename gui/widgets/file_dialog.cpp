// File dialogs that never open the files they list (gui/widgets/file_dialog.h): a
// QFileDialog, not native, whose icon provider reads names only.

#include "gui/widgets/file_dialog.h"

#include <QAbstractFileIconProvider>
#include <QFileDialog>
#include <QFileInfo>
#include <QMimeDatabase>

namespace zerolab {

namespace {

// Icons and type names from the file name alone. Qt's own provider asks QMimeDatabase
// with MatchDefault, which opens and reads a file whose suffix says nothing (runs.db,
// runs.db-wal, runs.db-shm).
class NameOnlyIconProvider : public QAbstractFileIconProvider {
public:
    using QAbstractFileIconProvider::icon;

    QIcon icon(const QFileInfo& info) const override {
        if (info.isDir())
            return icon(Folder);
        const QIcon themed = QIcon::fromTheme(mimeType(info).iconName());
        return themed.isNull() ? icon(File) : themed;
    }

    QString type(const QFileInfo& info) const override {
        if (!info.isFile())
            return QAbstractFileIconProvider::type(info); // a folder, a drive: no read
        const QMimeType mime = mimeType(info);
        return mime.comment().isEmpty() ? mime.name() : mime.comment();
    }

private:
    QMimeType mimeType(const QFileInfo& info) const {
        return m_mime.mimeTypeForFile(info, QMimeDatabase::MatchExtension);
    }

    QMimeDatabase m_mime;
};

QString run(QWidget* parent, const QString& caption, const QString& dir, const QString& filter,
            QFileDialog::AcceptMode accept, QFileDialog::FileMode mode) {
    NameOnlyIconProvider icons; // outlives the dialog, declared before it
    QFileDialog dialog(parent, caption, dir, filter);
    dialog.setOption(QFileDialog::DontUseNativeDialog);
    dialog.setIconProvider(&icons);
    dialog.setAcceptMode(accept);
    dialog.setFileMode(mode);
    if (mode == QFileDialog::Directory)
        dialog.setOption(QFileDialog::ShowDirsOnly);
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return {};
    return dialog.selectedFiles().front();
}

} // namespace

QString openFileName(QWidget* parent, const QString& caption, const QString& dir,
                     const QString& filter) {
    return run(parent, caption, dir, filter, QFileDialog::AcceptOpen, QFileDialog::ExistingFile);
}

QString saveFileName(QWidget* parent, const QString& caption, const QString& dir,
                     const QString& filter) {
    return run(parent, caption, dir, filter, QFileDialog::AcceptSave, QFileDialog::AnyFile);
}

QString existingDirectory(QWidget* parent, const QString& caption, const QString& dir) {
    return run(parent, caption, dir, {}, QFileDialog::AcceptOpen, QFileDialog::Directory);
}

} // namespace zerolab
