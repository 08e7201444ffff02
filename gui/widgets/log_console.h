// LogConsole: the ranks' stderr (and the launcher's) as one scrolling console with a
// rank filter, an "errors only" switch and errors and warnings highlighted.
#pragma once

#include <QVector>
#include <QWidget>

class QCheckBox;
class QLabel;
class QPushButton;
class QComboBox;
class QPlainTextEdit;

namespace zerolab {

// UI thread only. Keeps the last kMaxLines lines; the filter rebuilds the view from them.
class LogConsole : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxLines = 20000;
    enum class Level { Info, Warn, Error };

    explicit LogConsole(QWidget* parent = nullptr);

    // rank -1: the launcher (mpirun's own messages) or the GUI.
    void addLine(int rank, const QString& text);
    void clear();
    // Shows only this rank's lines (-2: every line, -1: the launcher's).
    void setRankFilter(int rank);
    void setErrorsOnly(bool on);
    // The lines the filter shows, for tests.
    QStringList visibleLines() const;
    static Level classify(const QString& text);

protected:
    void changeEvent(QEvent* event) override;

private:
    // The filter bar's texts in the current language; lines already shown keep theirs.
    void retranslate();
    // "all ranks", "launcher" or "rank N" for a filter value.
    static QString rankItemText(int rank);
    struct Line {
        int rank;
        Level level;
        QString text;
    };
    bool accepts(const Line& l) const;
    void appendToView(const Line& l);
    void rebuild();
    void ensureRank(int rank);

    QVector<Line> m_lines;
    int m_rankFilter = -2;
    bool m_errorsOnly = false;
    QComboBox* m_rank;
    QCheckBox* m_errors;
    QLabel* m_showLabel;
    QPushButton* m_clear;
    QPlainTextEdit* m_view;
};

} // namespace zerolab
