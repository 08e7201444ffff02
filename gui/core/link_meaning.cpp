// A preset's link between hosts in words (link_meaning.h): the sentence is this one
// function's, its numbers the planner's interHostLink.
#include "gui/core/link_meaning.h"

#include "runtime/planner/bandwidth_units.h"
#include "runtime/planner/cluster_presets.h"
#include "runtime/planner/planner.h"

#include <QCoreApplication>

#include <optional>

namespace zerolab {

QString linkMeaning(const TimeSource& source) {
    const LinkPreset* preset = source.isMachine() ? nullptr : findLinkPreset(source.inter);
    if (!preset)
        return {};
    try {
        // One NIC per GPU, as zerolab-plan takes a preset without --nics-per-node.
        const InterHostLink link =
            interHostLink(source.inter, "", std::max(1, source.ranks_per_host), std::nullopt);
        const auto bits = [](double bytes_per_s) {
            return QString::fromStdString(formatBits(bytes_per_s));
        };
        const QString nics =
            link.nics_per_node == 1
                ? QCoreApplication::translate("StepForecast", "1 NIC")
                : QCoreApplication::translate("StepForecast", "%1 NICs").arg(link.nics_per_node);
        return QCoreApplication::translate("StepForecast",
                                           "%1 between hosts: %2 per GPU · %3 per node = %4 "
                                           "per node")
            .arg(QString::fromUtf8(preset->label.data(), int(preset->label.size())),
                 bits(link.spec.bytes_per_s), nics, bits(link.per_node_bytes_per_s));
    } catch (const PlanError&) {
        return {};
    }
}

} // namespace zerolab
