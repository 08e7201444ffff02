// How the Lab shows a lesson's numbers: a value in a check's unit as text, a check
// result as a report row, the student's typed answer as a number. The Lab view's table
// and the PDF report both use these, so the report says what the view said.
#pragma once

#include "gui/views/lab/lab_report.h"
#include "runtime/lab/lab_check.h"

#include <QString>

#include <optional>
#include <string>

namespace zerolab {

// A unit's label on screen ("ψ", "MiB", "ψ（元素数）" in Chinese); the name for an unknown unit.
QString labUnitLabel(const std::string& unit);

// "12.0 ψ", "3.51 MiB", "4 collectives", "1.23 GB"; empty for nullopt. Three significant
// digits, more when the value needs them to differ from a neighbour by 0.1 %.
QString formatLabValue(std::optional<double> value, const std::string& unit);

// The student's answer: a number or arithmetic ("4 + 12/4") in the prediction's unit;
// nullopt (and `error` set) when it is not one.
std::optional<double> parsePrediction(const QString& text, QString* error);

// True when the student's answer is within 2 % of what the run measured (or, for a plan
// step, of the planner's value).
bool predictionHits(const CheckResult& check, double prediction);

// The row of the report (and of the view's table) for one check in `lang`.
LabReportRow labReportRow(const CheckResult& check, std::optional<double> prediction,
                          const std::string& lang);

} // namespace zerolab
