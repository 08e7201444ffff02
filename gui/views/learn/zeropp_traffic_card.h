// Learn's ZeRO++ card: for one of the paper's models on N = hosts x GPUs per host, the bytes
// one GPU sends per step across hosts and within its host, for stages 0-3 and stage 3 with
// qwZ, hpZ (groups of a host's GPUs), qgZ and all three, with each bar's share of plain
// stage 3's cross-host bytes at its end. Every number is the planner's StagePlan link
// traffic (planner.h, zeropp_plan.h's stage3StepTraffic), as zerolab-plan --explain prints it.
#pragma once

#include "runtime/planner/planner.h"
#include "storage/comm_traffic.h"

#include <QWidget>

#include <optional>
#include <vector>

class QComboBox;
class QCPAxisRect;
class QCPBars;
class QCustomPlot;
class QLabel;
class QSpinBox;

namespace zerolab {

// One bar of the card: a stage, and at stage 3 which of ZeRO++'s parts are on.
struct TrafficVariant {
    int stage = 0;
    bool qwz = false;
    bool hpz = false;
    bool qgz = false;
};

// UI thread only.
class ZeroPPTrafficCard : public QWidget {
    Q_OBJECT
public:
    explicit ZeroPPTrafficCard(QWidget* parent = nullptr);

    // Stages 0-3, then stage 3 with qwZ, hpZ, qgZ and all three: the bars top to bottom.
    static const std::vector<TrafficVariant>& variants();
    // The planner's input for `v` on the card's model and cluster (bf16, micro-batch 1).
    PlanInput input(const TrafficVariant& v) const;

    void setModel(int index); // into kPaperModels (paper_activations.h)
    void setHosts(int hosts);
    void setGpusPerHost(int gpus);

    // The planner's link traffic of each variant (variants() order); empty when it refused.
    const std::vector<LinkTraffic>& traffic() const { return m_traffic; }
    // Cross-host bytes of all three against plain stage 3's; nullopt without a link.
    std::optional<double> allThreeRatio() const;
    // The bars as drawn, in bytes (the axes are in the unit their label names).
    std::vector<double> acrossBytes() const;
    std::vector<double> withinBytes() const;
    // The text at the end of variant i's cross-host bar.
    QString acrossLabel(int i) const;
    QString verdictText() const;
    QCustomPlot* plot() const { return m_plot; }

protected:
    void changeEvent(QEvent* event) override;
    // Plans on first show: five plans of a 175B model are not free, and Learn opens on
    // another tab.
    void showEvent(QShowEvent* event) override;

private:
    void retranslate();
    void replan();
    QString variantName(const TrafficVariant& v) const;

    QLabel* m_title;
    QLabel* m_hint;
    QLabel* m_modelLabel;
    QComboBox* m_model;
    QLabel* m_hostsLabel;
    QSpinBox* m_hosts;
    QLabel* m_perHostLabel;
    QSpinBox* m_perHost;
    QCustomPlot* m_plot;
    QCPAxisRect* m_withinRect;
    QCPBars* m_acrossBars;
    QCPBars* m_withinBars;
    QLabel* m_verdict;
    std::vector<LinkTraffic> m_traffic;
    std::vector<QString> m_acrossLabels;
    double m_acrossUnit = 1;
    double m_withinUnit = 1;
    bool m_stale = true; // the texts or inputs changed while hidden
};

} // namespace zerolab
