// The Lab's charts: what a lesson step's chart draws, from the runs its outcome read back
// from the store or from its plan. One widget per chart, which the Lab view shows and the
// lab report prints.
#pragma once

#include "gui/client/lab_client.h"
#include "runtime/lab/lesson.h"

#include <QCoreApplication>
#include <QImage>
#include <QSize>
#include <QString>
#include <QWidget>

#include <string>

namespace zerolab {

class LabCharts {
    Q_DECLARE_TR_FUNCTIONS(LabCharts)
public:
    // The chart of `step` in `lang`; nullptr when the step has no chart or nothing to
    // draw yet (a run step without an outcome).
    static QWidget* build(const LessonStep& step, const LabStepOutcome* outcome,
                          const std::string& lang, QWidget* parent = nullptr);
    // True where the step is about model states: its chart names only model-state
    // categories, or most of its memory checks are on model states (params ... optim_v,
    // optimizer_states, model_states). Its memory chart then opens on "model states only"
    // (a plan's chart against the device always opens on the total).
    static bool aboutModelStates(const LessonStep& step);
    // The chart as the report prints it: laid out at kPrintSize (legend and notes
    // included) and grabbed.
    static QImage render(QWidget* chart);
    static constexpr QSize kPrintSize{860, 500};
};

// A run's label in the lesson ("recompute none"), or its id when it has none.
QString labRunLabel(const LessonStep& step, const std::string& runId, const std::string& lang);

} // namespace zerolab
