// forecastJson: read back from the forecast widget itself, so that what scripts print
// is what the chart shows.
#include "gui/app/forecast_json.h"

#include "gui/views/setup/setup_view.h"
#include "gui/widgets/forecast_panel.h"
#include "gui/widgets/memory_bar_chart.h"

namespace zerolab {

nlohmann::json forecastJson(const SetupView& view) {
    const auto& plan = view.forecast()->currentPlan();
    if (!view.validation().config || !plan)
        return nullptr;
    const MemoryBarChart* chart = view.forecast()->chart();
    nlohmann::json stages = nlohmann::json::array();
    for (const StagePlan& s : plan->stages) {
        nlohmann::json perRank = nlohmann::json::object();
        for (std::size_t c = 0; c < kMemCategoryCount; ++c)
            perRank[std::string(kMemCategoryNames[c])] =
                static_cast<long long>(chart->segmentBytes(s.stage, static_cast<MemCategory>(c)));
        stages.push_back({{"stage", s.stage},
                          {"per_rank", perRank},
                          {"total_bytes", s.total_bytes},
                          {"fits", s.fits},
                          {"margin_bytes", s.margin_bytes},
                          {"traffic_bytes", s.traffic.total()},
                          {"traffic_psi", s.traffic_elements / static_cast<double>(plan->psi)}});
    }
    const DeviceCapacity& d = plan->input.device;
    return {{"config", view.currentPath().toStdString()},
            {"psi", plan->psi},
            {"world", plan->input.world},
            {"stage", chart->highlighted()},
            {"precision", std::string(toString(plan->input.precision))},
            {"device",
             {{"key", d.key},
              {"label", d.label},
              {"capacity_bytes", d.capacity_bytes},
              {"reserve_bytes", d.reserve_bytes},
              {"usable_bytes", d.usableBytes()}}},
            {"stages", stages}};
}

} // namespace zerolab
