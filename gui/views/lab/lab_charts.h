// The Lab's charts: what a lesson step's chart draws, from the runs its outcome read back
// from the store or from its plan. One widget per chart, which the Lab view shows and the
// lab report prints.
#pragma once

#include "gui/client/lab_client.h"
#include "runtime/lab/lesson.h"

#include <QCoreApplication>
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
};

// A run's label in the lesson ("recompute none"), or its id when it has none.
QString labRunLabel(const LessonStep& step, const std::string& runId, const std::string& lang);

} // namespace zerolab
