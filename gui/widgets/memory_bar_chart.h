// A stacked-bar chart of per-rank memory by ledger category: one bar per group
// (a ZeRO stage, a rank or a run), an optional device-capacity line, a dashed
// outline of a predicted total per bar, and one highlighted group. The capacity's
// name and a drop marker's words sit above the plot (the marker's brackets carry only
// their tags ① ②) and the totals on white over the bars, so no label covers another or
// is cut at the edge; a log axis keeps a tiny bar (stage 3 at 175B) in sight.
#pragma once

#include "gui/core/units.h"
#include "storage/mem_category.h"

#include <QString>
#include <QVector>
#include <QWidget>

#include <optional>

class QCustomPlot;
class QCPBars;
class QLabel;
class QCPTextElement;

namespace zerolab {

struct MemoryBarGroup {
    QString label;                        // tick label under the bar
    MemBreakdown bytes;                   // stacked in MemCategory order, bottom up
    std::optional<double> predictedBytes; // drawn as a dashed outline when set
};

// A drop between two bars that has two causes, marked by two brackets beside the first bar:
// from its total down to `viaBytes` (the first cause), then on to the second bar's total.
// Learn marks the chapter's layout giving way to ZeRO's this way. The brackets are tagged
// ① and ②; their labels are the note above the plot, which wraps and never covers a bar.
// A second cause of (nearly) nothing draws no second bracket and no line at viaBytes.
struct DropMarker {
    int fromGroup = 0;
    int toGroup = 0;
    double viaBytes = 0;
    QString firstLabel;  // ① in the accent colour, like the first bracket
    QString secondLabel; // ② muted, like the second bracket
    QString viaLabel;    // after "- - -", the dashed line drawn at viaBytes
};

// UI thread only. Owns its QCustomPlot.
class MemoryBarChart : public QWidget {
    Q_OBJECT
public:
    explicit MemoryBarChart(QWidget* parent = nullptr);

    void setGroups(const QVector<MemoryBarGroup>& groups);
    const QVector<MemoryBarGroup>& groups() const { return m_groups; }
    // Index into groups(), or -1 for none.
    void setHighlighted(int index);
    int highlighted() const { return m_highlighted; }
    // A horizontal line at `bytes` labelled e.g. "A100 80 GB"; nullopt hides it.
    void setCapacity(std::optional<double> bytes, const QString& label = {});
    // A logarithmic value axis: bars orders of magnitude apart stay readable.
    void setLogScale(bool on);
    bool logScale() const { return m_log; }
    // The capacity caption above the plot (empty without a capacity), for tests.
    QString capacityCaption() const;
    void setValueAxisTitle(const QString& title) {
        m_axisTitle = title;
        rebuild();
    }
    // psi > 0: every value divided by psi and shown as bytes per parameter (a bf16 run at
    // N = 2 reads 16, 10, 9, 8 for stages 0-3); 0: bytes.
    void setPerParameter(double psi);
    bool perParameter() const { return m_psi > 0; }
    // A held scale: the value axis reaches at least `bytes`, so that runs shown one after
    // the other compare by eye; nullopt fits the data.
    void setScaleFloor(std::optional<double> bytes);
    // The top of the value axis in bytes (what "hold the scale" keeps).
    double scaleTopBytes() const { return m_topBytes; }

    // nullopt removes it. Kept until replaced, across setGroups.
    void setDropMarker(std::optional<DropMarker> marker) {
        m_marker = std::move(marker);
        rebuild();
    }
    const std::optional<DropMarker>& dropMarker() const { return m_marker; }
    // The drop marker's words above the plot (hidden without a marker), for tests.
    QLabel* markerNote() const { return m_markerNote; }

    // The plotted value (in bytes) of one stacked segment, for tests.
    double segmentBytes(int group, MemCategory c) const;
    // A group's tooltip as HTML, every value in the axis's unit (for tests).
    QString tooltipHtml(int group) const;
    QCustomPlot* plot() const { return m_plot; }

signals:
    void groupClicked(int index);

protected:
    void changeEvent(QEvent* event) override;

private:
    // The categories' names and the axis title in the current language (the groups'
    // labels and the capacity's name are the owner's: it sets them again).
    void retranslate();
    // What rebuild draws, one step a function: the scale first, then the axes, the bars,
    // the groups' outlines and labels, the capacity and the value range.
    struct Scale {
        double maxBytes = 0;
        double minBytes = 0;
        bool capacityOnScale = false;
        DisplayUnit unit{1, QString()};
    };
    void rebuild();
    Scale computeScale();
    void setUpAxes(const DisplayUnit& unit);
    void fillBars(const DisplayUnit& unit);
    void addGroupItems(const DisplayUnit& unit);
    void showCapacity(const Scale& scale);
    void addDropMarker(const DisplayUnit& unit);
    void setValueRange(const Scale& scale);
    void showTooltip(QMouseEvent* event);
    QString valueText(double bytes) const;
    int groupAt(double pixelX) const;

    QCustomPlot* m_plot;
    QCPTextElement* m_caption; // the capacity, in a row above the axis rect
    QLabel* m_markerNote;      // the drop marker's labels, above the plot
    QVector<QCPBars*> m_bars;  // one per MemCategory, stacked
    QVector<MemoryBarGroup> m_groups;
    int m_highlighted = -1;
    std::optional<double> m_capacity;
    std::optional<DropMarker> m_marker;
    QString m_capacityLabel;
    bool m_log = false;
    double m_psi = 0;
    std::optional<double> m_floor;
    double m_topBytes = 0;
    QString m_axisTitle; // empty: "Memory per rank" in the current language
};

} // namespace zerolab
