// pdftoppm -png -r 60 -f 1 -l 1 FILE DIR/page, then a pixel count.
#include "pdf_ink.h"

#include <QDir>
#include <QProcess>
#include <QStandardPaths>

#include <cstdlib>

PdfInk pdfFirstPageInk(const QString& pdf, const QString& dir) {
    PdfInk out;
    const QString tool = QStandardPaths::findExecutable(QStringLiteral("pdftoppm"));
    if (tool.isEmpty()) {
        out.error = QStringLiteral("pdftoppm not found (Debian: poppler-utils, in "
                                   "scripts/install-deps)");
        return out;
    }
    QProcess p;
    const QString prefix = QDir(dir).filePath(QStringLiteral("page"));
    p.start(tool, {QStringLiteral("-png"), QStringLiteral("-r"), QStringLiteral("60"),
                   QStringLiteral("-f"), QStringLiteral("1"), QStringLiteral("-l"),
                   QStringLiteral("1"), pdf, prefix});
    if (!p.waitForFinished(60000) || p.exitCode() != 0) {
        out.error = QStringLiteral("pdftoppm failed on %1: %2")
                        .arg(pdf, QString::fromLocal8Bit(p.readAllStandardError()));
        return out;
    }
    const QStringList pages =
        QDir(dir).entryList({QStringLiteral("page-*.png")}, QDir::Files, QDir::Name);
    if (pages.isEmpty() || !out.image.load(QDir(dir).filePath(pages.first()))) {
        out.error = QStringLiteral("pdftoppm wrote no page image for %1").arg(pdf);
        return out;
    }
    const QImage img = out.image.convertToFormat(QImage::Format_RGB32);
    long long ink = 0, colour = 0;
    for (int y = 0; y < img.height(); ++y) {
        const QRgb* line = reinterpret_cast<const QRgb*>(img.constScanLine(y));
        for (int x = 0; x < img.width(); ++x) {
            const int r = qRed(line[x]), g = qGreen(line[x]), b = qBlue(line[x]);
            if (r < 235 || g < 235 || b < 235)
                ++ink;
            if (std::abs(r - g) > 40 || std::abs(g - b) > 40 || std::abs(r - b) > 40)
                ++colour;
        }
    }
    const double pixels = double(img.width()) * img.height();
    out.inkFraction = ink / pixels;
    out.colourFraction = colour / pixels;
    return out;
}
