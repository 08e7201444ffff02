// The views' profile sources and their one call of the step-time model (step_forecast.h).
#include "gui/core/step_forecast.h"

#include "gui/core/display_text.h"
#include "runtime/planner/cluster_presets.h"
#include "runtime/planner/planner.h"

#include <QCoreApplication>

namespace zerolab {

namespace {

QString text(std::string_view s) {
    return QString::fromUtf8(s.data(), int(s.size()));
}

QString calibratedOn(const MachineProfile& p) {
    return shownText(p.date.substr(0, 10), 10);
}

} // namespace

std::vector<TimeSource> clusterPresets() {
    std::vector<TimeSource> out;
    for (const GpuPreset& g : gpuPresets()) {
        TimeSource s;
        s.gpu = std::string(g.key);
        // The InfiniBand generation of the GPU's systems: HDR beside A100 (DGX A100), NDR
        // beside H100 and H200 (DGX H100).
        s.inter = g.intra_link == "nvlink3" ? "ib-hdr" : "ib-ndr";
        out.push_back(std::move(s));
    }
    return out;
}

namespace {

// A preset's hosts for `world` ranks: the fewest of at most ranks_per_host each that divide it.
int presetHosts(const TimeSource& source, int world) {
    const int per = std::max(1, source.ranks_per_host);
    int hosts = (world + per - 1) / per;
    while (world % hosts != 0)
        ++hosts;
    return hosts;
}

} // namespace

ClusterShape clusterFor(const TimeSource& source, const TrainConfig& config) {
    const int world = std::max(1, config.batch.world);
    if (source.isMachine()) {
        const int per = config.run.ranks_per_host;
        return {per > 0 && per < world && world % per == 0 ? world / per : 1};
    }
    return {presetHosts(source, world)};
}

MachineProfile profileFor(const TimeSource& source, Precision precision) {
    if (source.isMachine())
        return *source.machine;
    return presetProfile(source.gpu, "", source.inter, precision);
}

StepTimeForecast forecastStep(const TrainConfig& config, const TimeSource& source) {
    return predictStepTime(config, profileFor(source, config.precision),
                           clusterFor(source, config));
}

QString sourceName(const TimeSource& source, int world) {
    if (source.isMachine())
        return QCoreApplication::translate("StepForecast", "This machine (calibrated %1)")
            .arg(calibratedOn(*source.machine));
    const GpuPreset* g = findGpuPreset(source.gpu);
    const LinkPreset* l = findLinkPreset(source.inter);
    const QString gpu = g ? text(g->label) : QString::fromStdString(source.gpu);
    const QString link = l ? text(l->label) : QString::fromStdString(source.inter);
    if (world < 1)
        return QCoreApplication::translate("StepForecast", "%1 × %2 · %3")
            .arg(source.ranks_per_host)
            .arg(gpu, link);
    const int hosts = presetHosts(source, world);
    if (hosts == 1)
        return QCoreApplication::translate("StepForecast", "%1 × %2 (one host)")
            .arg(world)
            .arg(gpu);
    return QCoreApplication::translate("StepForecast", "%1 hosts × %2 %3 · %4")
        .arg(hosts)
        .arg(world / hosts)
        .arg(gpu, link);
}

QString sourceLabel(const TimeSource& source, const TrainConfig& config) {
    if (source.isMachine())
        return QCoreApplication::translate("StepForecast", "this machine, calibrated on %1 (%2)")
            .arg(calibratedOn(*source.machine), shownText(source.machine->name, kShownNameChars));
    const int hosts = clusterFor(source, config).hosts;
    const GpuPreset* g = findGpuPreset(source.gpu);
    const LinkPreset* l = findLinkPreset(source.inter);
    const QString gpu = g ? text(g->label) : QString::fromStdString(source.gpu);
    // The best matmul's share of the peak (smaller shapes reach less: gpu_physics.h).
    const double ceiling = g ? g->matmul_ceiling * 100 : 0;
    const int world = std::max(1, config.batch.world);
    if (hosts == 1)
        return QCoreApplication::translate("StepForecast",
                                           "cluster preset: one host of %1 × %2 (datasheet peaks "
                                           "at %3% of the matmul peak)")
            .arg(world)
            .arg(gpu)
            .arg(ceiling);
    return QCoreApplication::translate("StepForecast",
                                       "cluster preset: %1 hosts × %2 %3, %4 between them "
                                       "(datasheet peaks at %5% of the matmul peak)")
        .arg(hosts)
        .arg(world / hosts)
        .arg(gpu, l ? text(l->label) : QString::fromStdString(source.inter))
        .arg(ceiling);
}

} // namespace zerolab
