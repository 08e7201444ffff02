// The GUI's colours by name: the one place a colour value is written outside the style
// sheet (gui/widgets/style.cpp). Qt Gui only, so the item models in core colour their
// cells with the same names the widgets draw with.
#pragma once

#include <QColor>

#include <array>

namespace zerolab {

// Text and chrome.
inline const QColor kAccent{0x2F, 0x6D, 0xB5};
inline const QColor kTextMuted{0x6B, 0x72, 0x80};
inline const QColor kTextFaint{0x9C, 0xA3, 0xAF};
inline const QColor kTextStrong{0x37, 0x41, 0x51};
inline const QColor kTextDarkest{0x11, 0x18, 0x27};
inline const QColor kTextDefault{0x00, 0x00, 0x00};
inline const QColor kGridColor{0xE5, 0xE7, 0xEB};
inline const QColor kWhite{0xFF, 0xFF, 0xFF};
inline const QColor kEditorGutter{0xF9, 0xFA, 0xFB};

// Verdicts and states.
inline const QColor kErrorColor{0xC2, 0x41, 0x0C};
inline const QColor kOkColor{0x15, 0x80, 0x3D};
inline const QColor kWarnColor{0xB4, 0x53, 0x09};
inline const QColor kWarnAccent{0xD9, 0x77, 0x06};
inline const QColor kAlarmColor{0xDC, 0x26, 0x26};
inline const QColor kErrorEventColor{0xB9, 0x1C, 0x1C};
inline const QColor kLiveColor{0x16, 0xA3, 0x4A};
inline const QColor kRestartColor{0x25, 0x63, 0xEB};
inline const QColor kWaitTextColor{0x9B, 0x1C, 0x1C};
inline const QColor kWarnBackground{0xFE, 0xF3, 0xC7};
inline const QColor kErrorBackground{0xFD, 0xE8, 0xE1};

// The failed-run banner and the stall row of the live panel.
inline const QColor kErrorBannerBackground{0xFE, 0xF2, 0xF2};
inline const QColor kErrorBannerBorder{0xFC, 0xA5, 0xA5};
inline const QColor kErrorBannerText{0x99, 0x1B, 0x1B};
inline const QColor kStallBackground{0xFF, 0xFB, 0xEB};
inline const QColor kStallBorder{0xF5, 0x9E, 0x0B};
inline const QColor kStallText{0x92, 0x40, 0x0E};

// Series in plots.
inline const QColor kPlannerSeries{0x9C, 0xA3, 0xAF};
inline const QColor kMeasuredSeries{0xE4, 0x57, 0x56};
inline const QColor kThroughputSeries{0x15, 0x80, 0x3D};
inline const QColor kForecastSeries{0x37, 0x41, 0x51};
inline const QColor kRssSeries{0x72, 0xB7, 0xB2};
// One colour per run in Compare, in tick order (wraps around).
inline const std::array<QColor, 8> kRunColors = {
    QColor(0x2F, 0x6D, 0xB5), QColor(0xE4, 0x57, 0x56), QColor(0x15, 0x80, 0x3D),
    QColor(0xF5, 0x85, 0x18), QColor(0x7C, 0x3A, 0xED), QColor(0x0F, 0x76, 0x6E),
    QColor(0x9D, 0x75, 0x5D), QColor(0xD9, 0x46, 0xEF)};
// One colour per ZeRO stage 0-3 (Okabe-Ito, colour-blind safe).
inline const std::array<QColor, 4> kStageColors = {
    QColor(0x00, 0x72, 0xB2), QColor(0xE6, 0x9F, 0x00), QColor(0x00, 0x9E, 0x73),
    QColor(0xCC, 0x79, 0xA7)};

// JSON syntax colours.
inline const QColor kJsonKey{0x1D, 0x4E, 0x89};
inline const QColor kJsonString{0x0F, 0x76, 0x6E};
inline const QColor kJsonNumber{0xB4, 0x53, 0x09};
inline const QColor kJsonLiteral{0x7C, 0x3A, 0xED};
inline const QColor kJsonPunctuation{0x9C, 0xA3, 0xAF};

// The dark log console.
inline const QColor kConsoleBackground{0x11, 0x18, 0x27};
inline const QColor kConsoleText{0xE5, 0xE7, 0xEB};
inline const QColor kConsoleError{0xF8, 0x71, 0x71};
inline const QColor kConsoleWarn{0xFB, 0xBF, 0x24};

// A colour with alpha 0-255, for label chips and selection bands over a plot.
inline QColor withAlpha(QColor c, int alpha) {
    c.setAlpha(alpha);
    return c;
}

} // namespace zerolab
