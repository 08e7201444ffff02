// Renders a PDF's first page with pdftoppm (poppler-utils) and measures it: how much
// of the page is ink (not near-white) and how much is colour. Shared by the tests of
// the lab report.
#pragma once

#include <QImage>
#include <QString>

struct PdfInk {
    QString error; // set when pdftoppm is missing or failed: the caller skips or fails
    QImage image;
    double inkFraction = 0;
    double colourFraction = 0;
};

// Writes DIR/page-1.png (or page-01.png, pdftoppm's choice) at 60 dpi.
PdfInk pdfFirstPageInk(const QString& pdf, const QString& dir);
