// Names of the lesson enums, as the lesson format spells them.
#include "runtime/lab/lesson.h"

namespace zerolab {

std::string_view checkKindName(CheckKind k) {
    switch (k) {
    case CheckKind::Value:
        return "value";
    case CheckKind::Relation:
        return "relation";
    case CheckKind::Erratum:
        return "erratum";
    }
    return "value";
}

std::string_view relationName(Relation r) {
    switch (r) {
    case Relation::Decreasing:
        return "decreasing";
    case Relation::Increasing:
        return "increasing";
    case Relation::Equal:
        return "equal";
    }
    return "equal";
}

std::string_view chartKindName(ChartKind k) {
    switch (k) {
    case ChartKind::Memory:
        return "memory";
    case ChartKind::Traffic:
        return "traffic";
    case ChartKind::StepTime:
        return "step_time";
    case ChartKind::Timeline:
        return "timeline";
    case ChartKind::Plan:
        return "plan";
    }
    return "memory";
}

} // namespace zerolab
