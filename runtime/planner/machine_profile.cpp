// The machine profile's rates, collective times and JSON (machine_profile.h).
#include "runtime/planner/machine_profile.h"

#include "runtime/config/json_text.h"
#include "runtime/files/bounded_file.h"
#include "runtime/model/family.h"
#include "runtime/planner/gpu_physics.h"
#include "runtime/planner/planner.h"
#include "runtime/planner/rank_interpolation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace zerolab {

namespace {

std::string linkName(LinkClass l) {
    return std::string(kLinkClassNames[static_cast<std::size_t>(l)]);
}

} // namespace

int steadyBatchCalls(double bytes, double first_call_s) {
    const double by_bytes = std::ceil(kSteadyBatchBytes / std::max(bytes, 1.0));
    const double by_time = std::ceil(kSteadyBatchSeconds / std::max(first_call_s, 1e-9));
    return static_cast<int>(
        std::clamp(std::min(by_bytes, by_time), 2.0, static_cast<double>(kSteadyBatchMaxCalls)));
}

CollectiveFit fitLatencyBandwidth(const std::vector<std::pair<double, double>>& measured) {
    std::vector<std::pair<double, double>> points = measured;
    std::sort(points.begin(), points.end());
    if (points.size() < 2)
        throw PlanError("a latency-bandwidth fit needs at least two sizes");
    // Weighted least squares of t = a + x * c (c = 1 / bandwidth), weights 1 / t^2.
    double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (const auto& [x, t] : points) {
        const double w = 1 / (t * t);
        sw += w;
        sx += w * x;
        sy += w * t;
        sxx += w * x * x;
        sxy += w * x * t;
    }
    double c = (sw * sxy - sx * sy) / (sw * sxx - sx * sx);
    double a = (sy - c * sx) / sw;
    if (a < 0) {
        a = 0;
        c = sxy / sxx;
    }
    if (!(c > 0)) {
        // Times that fall with size (small calls dominated by noise, as on a loaded machine)
        // have no line of positive slope: the largest size's own rate, and a residual that
        // flags the fit (the model reads the points).
        a = 0;
        c = points.back().second / points.back().first;
    }
    CollectiveFit f;
    f.latency_s = a;
    f.bytes_per_s = 1 / c;
    for (const auto& [x, t] : points)
        f.worst_residual = std::max(f.worst_residual, std::abs(a + x * c - t) / t);
    f.points = std::move(points);
    return f;
}

double fitSeconds(const CollectiveFit& f, double bytes) {
    const auto& p = f.points;
    if (p.size() < 2)
        return f.latency_s + bytes / f.bytes_per_s;
    if (bytes <= p.front().first)
        return p.front().second;
    for (std::size_t i = 1; i < p.size(); ++i)
        if (bytes <= p[i].first) {
            const double share = (bytes - p[i - 1].first) / (p[i].first - p[i - 1].first);
            return p[i - 1].second + share * (p[i].second - p[i - 1].second);
        }
    const auto& [x0, t0] = p[p.size() - 2];
    const auto& [x1, t1] = p.back();
    const double slope = std::max((t1 - t0) / (x1 - x0), 1 / f.bytes_per_s);
    return t1 + (bytes - x1) * slope;
}

double opRate(const MachineProfile& p, OpKind kind, long long m, long long k, long long n) {
    const bool matmul = kind == OpKind::MatmulForward || kind == OpKind::MatmulBackward;
    // A GPU preset prices a matmul by its shape (gpu_physics.h); a shape-less call (the
    // report's "matmuls up to x% of the peak") reads rates[], the ceiling.
    if (matmul && p.gpu && m > 0 && k > 0 && n > 0) {
        const KernelOp op = matmulOp(kind == OpKind::MatmulForward, m, k, n);
        return op.work / matmulOpSeconds(*p.gpu, op);
    }
    if (matmul)
        for (const MatmulRate& r : p.matmuls)
            if (r.m == m && r.k == k && r.n == n)
                return kind == OpKind::MatmulForward ? r.forward_flops_per_s
                                                     : r.backward_flops_per_s;
    const double rate = p.rates[static_cast<std::size_t>(kind)];
    if (!(rate > 0))
        throw PlanError("machine profile '" + p.name + "' has no rate for " +
                        std::string(kOpKindNames[static_cast<std::size_t>(kind)]));
    return rate;
}

double collectiveSeconds(const MachineProfile& p, Collective c, LinkClass link, int ranks,
                         double bytes) {
    if (ranks < 2)
        return 0;
    const std::optional<LinkSpec>& spec =
        link == LinkClass::IntraHost ? p.intra_link : p.inter_link;
    if (spec)
        return ringSteps(c, ranks) * spec->latency_s +
               bytes * ringTrafficFactor(c, ranks) / spec->bytes_per_s;
    std::string have;
    std::vector<int> calibrated;
    for (const CollectiveFit& f : p.fits) {
        if (f.collective != c || f.link != link)
            continue;
        if (f.ranks == ranks)
            return fitSeconds(f, bytes);
        have += (have.empty() ? "" : ", ") + std::to_string(f.ranks);
        calibrated.push_back(f.ranks);
    }
    // Between two calibrated rank counts: from the two neighbours (rank_interpolation.h).
    if (const std::optional<RankNeighbours> near = rankNeighbours(calibrated, ranks)) {
        const CollectiveFit *below = nullptr, *above = nullptr;
        for (const CollectiveFit& f : p.fits) {
            if (f.collective != c || f.link != link)
                continue;
            if (f.ranks == near->below)
                below = &f;
            if (f.ranks == near->above)
                above = &f;
        }
        return interpolatedCollectiveSeconds(*below, *above, ranks, bytes);
    }
    throw PlanError(
        "machine profile '" + p.name + "' has no fit for " + std::string(collectiveName(c)) +
        " over " + std::to_string(ranks) + " ranks on " + linkName(link) +
        (have.empty() ? std::string(" (none on that link)") : " (it has " + have + " ranks)") +
        "; calibrate at that rank count (a rank count between two calibrated ones is "
        "interpolated; outside them it is not)");
}

nlohmann::json toJson(const MachineProfile& p) {
    nlohmann::json rates = nlohmann::json::object();
    for (std::size_t i = 0; i < kOpKindCount; ++i)
        if (p.rates[i] > 0)
            rates[std::string(kOpKindNames[i])] = p.rates[i];
    nlohmann::json matmuls = nlohmann::json::array();
    for (const MatmulRate& r : p.matmuls)
        matmuls.push_back({{"m", r.m},
                           {"k", r.k},
                           {"n", r.n},
                           {"forward_flops_per_s", r.forward_flops_per_s},
                           {"backward_flops_per_s", r.backward_flops_per_s}});
    nlohmann::json fits = nlohmann::json::array();
    for (const CollectiveFit& f : p.fits) {
        nlohmann::json fit = {{"collective", collectiveName(f.collective)},
                              {"link", linkName(f.link)},
                              {"ranks", f.ranks},
                              {"latency_s", f.latency_s},
                              {"bytes_per_s", f.bytes_per_s},
                              {"worst_residual", f.worst_residual}};
        if (!f.points.empty()) {
            fit["points"] = nlohmann::json::array();
            for (const auto& [bytes, seconds] : f.points)
                fit["points"].push_back({bytes, seconds});
        }
        fits.push_back(fit);
    }
    nlohmann::json pieces = nlohmann::json::array();
    for (const ModelPieceTimes& t : p.pieces) {
        nlohmann::json seconds = nlohmann::json::object();
        for (std::size_t i = 1; i < kModelComputeCount; ++i)
            // null: a piece this model's calls never run (an untied Llama's final norm is
            // its head's piece, llama_unit_calls.h).
            seconds[std::string(kModelComputeNames[i])] =
                t.seconds[i] > 0 ? nlohmann::json(t.seconds[i]) : nlohmann::json(nullptr);
        pieces.push_back({{"n_layer", t.n_layer},
                          {"n_head", t.n_head},
                          {"n_embd", t.n_embd},
                          {"vocab_size", t.vocab_size},
                          {"padded_vocab_size", t.padded_vocab_size},
                          {"seq_len", t.seq_len},
                          {"micro_batch", t.micro_batch},
                          {"family", std::string(modelFamily(t.family).name)},
                          {"n_kv_head", t.n_kv_head},
                          {"head_dim", t.head_dim},
                          {"ffn_dim", t.ffn_dim},
                          {"tied_head", t.tied_head},
                          {"qkv_bias", t.qkv_bias},
                          {"attention", std::string(attentionKernelName(t.attention))},
                          {"seconds", seconds}});
    }
    nlohmann::json slowdown = nlohmann::json::array();
    for (const auto& [ranks, factor] : p.compute_slowdown)
        slowdown.push_back({{"ranks", ranks}, {"slowdown", factor}});
    nlohmann::json j = {{"format", kMachineProfileFormat},
                        {"version", p.version},
                        {"source", p.source},
                        {"name", p.name},
                        {"date", p.date},
                        {"cores", p.cores},
                        {"threads_per_rank", p.threads_per_rank},
                        {"oversubscription_factor", p.oversubscription_factor},
                        {"compute_slowdown", slowdown},
                        {"hosts_share_cores", p.hosts_share_cores},
                        {"rates", rates},
                        {"matmuls", matmuls},
                        {"fits", fits}};
    if (!p.pieces.empty())
        j["pieces"] = pieces;
    if (!p.comm_beside_compute.empty()) {
        nlohmann::json beside = nlohmann::json::array();
        for (const MachineProfile::CommBesideCompute& b : p.comm_beside_compute)
            beside.push_back({{"link", linkName(b.link)}, {"ranks", b.ranks}, {"rate", b.rate}});
        j["comm_beside_compute"] = beside;
    }
    if (!p.compute_beside_comm.empty()) {
        nlohmann::json beside = nlohmann::json::array();
        for (const MachineProfile::ComputeBesideComm& b : p.compute_beside_comm)
            beside.push_back({{"link", linkName(b.link)}, {"ranks", b.ranks}, {"rate", b.rate}});
        j["compute_beside_comm"] = beside;
    }
    if (p.reference_pass)
        j["reference_pass"] = {{"model", p.reference_pass->model},
                               {"micro_batch", p.reference_pass->micro_batch},
                               {"seconds", p.reference_pass->seconds}};
    if (p.peak_flops > 0)
        j["peak_flops"] = p.peak_flops;
    if (p.gpu)
        j["gpu"] = {{"peak_flops", p.gpu->peak_flops},
                    {"matmul_ceiling", p.gpu->matmul_ceiling},
                    {"ceiling_k", p.gpu->ceiling_k},
                    {"sms", p.gpu->sms},
                    {"memory_bytes_per_s", p.gpu->memory_bytes_per_s},
                    {"memory_fraction", p.gpu->memory_fraction},
                    {"flash_forward", p.gpu->flash_forward},
                    {"flash_backward", p.gpu->flash_backward},
                    {"activation_bytes", p.gpu->activation_bytes},
                    {"intra_bus_efficiency", p.gpu->intra_bus_efficiency},
                    {"inter_bus_efficiency", p.gpu->inter_bus_efficiency}};
    for (const auto* link : {&p.intra_link, &p.inter_link})
        if (*link)
            j[link == &p.intra_link ? "intra_link" : "inter_link"] = {
                {"key", (*link)->key},
                {"label", (*link)->label},
                {"bytes_per_s", (*link)->bytes_per_s},
                {"latency_s", (*link)->latency_s}};
    return j;
}

namespace {

// The physical bounds of a profile's numbers: beyond them a value describes no machine
// (a rate of 1e-300 a second, a slowdown of 1e308) and would make a forecast of inf or
// NaN seconds. docs/planner.md, "Machine profile", lists them.
struct Bound {
    double least, most;
    const char* says; // "from 1e3 to 1e18 (work per second)"
};
constexpr Bound kRate{1e3, 1e18, "from 1e3 to 1e18 (work per second)"};
constexpr Bound kSlowdown{1e-2, 1e4, "from 0.01 to 1e4 (a factor on compute time)"};
constexpr Bound kBandwidth{1, 1e15, "from 1 to 1e15 (bytes per second)"};
constexpr Bound kLatency{0, 1e3, "from 0 to 1000 (seconds)"};
constexpr Bound kResidual{0, 1e6, "from 0 to 1e6 (a relative error)"};
constexpr Bound kSeconds{1e-9, 1e4, "from 1e-9 to 1e4 (seconds)"};
constexpr Bound kPointBytes{1, 281474976710656.0, "from 1 to 2^48 (bytes)"};
constexpr Bound kShare{1e-3, 1, "from 0.001 to 1 (a share of the rate alone)"};
constexpr Bound kFraction{1e-3, 1, "from 0.001 to 1 (a share of a peak or a link's rate)"};
constexpr Bound kDimension{1, 1e9, "from 1 to 1e9 (a matrix dimension)"};
constexpr Bound kElementBytes{1, 8, "from 1 to 8 (bytes an element)"};

// Reads values out of the profile document, naming file and JSON path in every error.
class Reader {
public:
    explicit Reader(std::string file) : m_file(std::move(file)) {}

    [[noreturn]] void fail(const std::string& path, const std::string& why) const {
        throw PlanError(m_file + ": " + path + ": " + why);
    }
    const nlohmann::json& at(const nlohmann::json& obj, const std::string& path,
                             const std::string& key) const {
        if (!obj.is_object())
            fail(path, "expected an object");
        const auto it = obj.find(key);
        if (it == obj.end())
            fail(path + "." + key, "missing (a partial profile: calibrate again)");
        return *it;
    }
    double positive(const nlohmann::json& obj, const std::string& path, const std::string& key,
                    bool zeroOk = false) const {
        const nlohmann::json& v = at(obj, path, key);
        if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0 ||
            (!zeroOk && v.get<double>() == 0))
            fail(path + "." + key, std::string("expected a number ") +
                                       (zeroOk ? ">= 0" : "above zero") + ", got " +
                                       describeJson(v));
        return v.get<double>();
    }
    // A number within `b`, refused naming the bound.
    double within(const nlohmann::json& obj, const std::string& path, const std::string& key,
                  const Bound& b) const {
        const double v = positive(obj, path, key, b.least == 0);
        check(v, path + "." + key, b);
        return v;
    }
    void check(double v, const std::string& path, const Bound& b) const {
        if (v < b.least || v > b.most) {
            char got[32];
            std::snprintf(got, sizeof got, "%g", v);
            fail(path, std::string("beyond what a machine does: expected a number ") + b.says +
                           ", got " + got);
        }
    }
    int count(const nlohmann::json& obj, const std::string& path, const std::string& key,
              int least) const {
        const nlohmann::json& v = at(obj, path, key);
        if (!v.is_number_integer() || v.get<long long>() < least || v.get<long long>() > 1 << 20)
            fail(path + "." + key, "expected a whole number >= " + std::to_string(least) +
                                       ", got " + describeJson(v));
        return static_cast<int>(v.get<long long>());
    }
    std::string text(const nlohmann::json& obj, const std::string& path,
                     const std::string& key) const {
        const nlohmann::json& v = at(obj, path, key);
        if (!v.is_string())
            fail(path + "." + key, "expected a string, got " + describeJson(v));
        return v.get<std::string>();
    }
    const nlohmann::json& array(const nlohmann::json& obj, const std::string& path,
                                const std::string& key) const {
        const nlohmann::json& v = at(obj, path, key);
        if (!v.is_array())
            fail(path + "." + key, "expected an array, got " + describeJson(v));
        return v;
    }
    std::string m_file;
};

LinkSpec linkFrom(const Reader& r, const nlohmann::json& j, const std::string& path) {
    return {r.text(j, path, "key"), r.text(j, path, "label"),
            r.within(j, path, "bytes_per_s", kBandwidth), r.within(j, path, "latency_s", kLatency)};
}

} // namespace

MachineProfile machineProfileFromJson(const nlohmann::json& j, const std::string& file) {
    const Reader r(file);
    MachineProfile p;
    if (r.text(j, "$", "format") != kMachineProfileFormat)
        r.fail("$.format", "expected \"" + std::string(kMachineProfileFormat) + "\", got " +
                               describeJson(j["format"]));
    p.version = r.count(j, "$", "version", 1);
    if (p.version != kMachineProfileVersion)
        r.fail("$.version", "version " + std::to_string(p.version) +
                                " is not known (this build "
                                "reads version " +
                                std::to_string(kMachineProfileVersion) + ")");
    p.source = r.text(j, "$", "source");
    if (p.source != "calibrated" && p.source != "preset")
        r.fail("$.source",
               "expected \"calibrated\" or \"preset\", got " + describeJson(j["source"]));
    p.name = r.text(j, "$", "name");
    p.date = r.text(j, "$", "date");
    p.cores = r.count(j, "$", "cores", 1);
    p.threads_per_rank = r.count(j, "$", "threads_per_rank", 1);
    p.oversubscription_factor = r.within(j, "$", "oversubscription_factor", kSlowdown);
    const nlohmann::json& slowdown = r.array(j, "$", "compute_slowdown");
    for (std::size_t i = 0; i < slowdown.size(); ++i) {
        const std::string path = "$.compute_slowdown[" + std::to_string(i) + "]";
        p.compute_slowdown.push_back({r.count(slowdown[i], path, "ranks", 1),
                                      r.within(slowdown[i], path, "slowdown", kSlowdown)});
    }
    const nlohmann::json& share = r.at(j, "$", "hosts_share_cores");
    if (!share.is_boolean())
        r.fail("$.hosts_share_cores", "expected true or false, got " + describeJson(share));
    p.hosts_share_cores = share.get<bool>();
    const nlohmann::json& rates = r.at(j, "$", "rates");
    if (!rates.is_object())
        r.fail("$.rates", "expected an object, got " + describeJson(rates));
    for (auto it = rates.begin(); it != rates.end(); ++it) {
        std::size_t i = 0;
        while (i < kOpKindCount && kOpKindNames[i] != it.key())
            ++i;
        if (i == kOpKindCount)
            r.fail("$.rates." + it.key(), "not a kernel the model counts");
        p.rates[i] = r.within(rates, "$.rates", it.key(), kRate);
    }
    // The kinds up to sum_squares are in every profile; the flash-attention and Llama
    // kinds came later (kernel_ops.h), so a profile from before them lacks them: a
    // forecast that runs one of them then names the kind (rateOf), nothing else fails.
    for (std::size_t i = 0; i <= static_cast<std::size_t>(OpKind::SumSquares); ++i)
        if (!(p.rates[i] > 0))
            r.fail("$.rates." + std::string(kOpKindNames[i]),
                   "missing (a partial profile: calibrate again)");
    const nlohmann::json& matmuls = r.array(j, "$", "matmuls");
    for (std::size_t i = 0; i < matmuls.size(); ++i) {
        const std::string path = "$.matmuls[" + std::to_string(i) + "]";
        const nlohmann::json& m = matmuls[i];
        p.matmuls.push_back({r.count(m, path, "m", 1), r.count(m, path, "k", 1),
                             r.count(m, path, "n", 1),
                             r.within(m, path, "forward_flops_per_s", kRate),
                             r.within(m, path, "backward_flops_per_s", kRate)});
    }
    const nlohmann::json& fits = r.array(j, "$", "fits");
    for (std::size_t i = 0; i < fits.size(); ++i) {
        const std::string path = "$.fits[" + std::to_string(i) + "]";
        const nlohmann::json& f = fits[i];
        CollectiveFit fit;
        const std::string c = r.text(f, path, "collective");
        const auto kind = collectiveFromName(c);
        if (!kind)
            r.fail(path + ".collective", "unknown collective " + describeJson(f["collective"]));
        fit.collective = *kind;
        const std::string link = r.text(f, path, "link");
        if (link != kLinkClassNames[0] && link != kLinkClassNames[1])
            r.fail(path + ".link",
                   "expected \"intra_host\" or \"inter_host\", got " + describeJson(f["link"]));
        fit.link = link == kLinkClassNames[0] ? LinkClass::IntraHost : LinkClass::InterHost;
        fit.ranks = r.count(f, path, "ranks", 2);
        fit.latency_s = r.within(f, path, "latency_s", kLatency);
        fit.bytes_per_s = r.within(f, path, "bytes_per_s", kBandwidth);
        fit.worst_residual = r.within(f, path, "worst_residual", kResidual);
        if (f.contains("points")) {
            const nlohmann::json& points = r.array(f, path, "points");
            for (std::size_t k = 0; k < points.size(); ++k) {
                const std::string at = path + ".points[" + std::to_string(k) + "]";
                const nlohmann::json& q = points[k];
                if (!q.is_array() || q.size() != 2 || !q[0].is_number() || !q[1].is_number() ||
                    !std::isfinite(q[0].get<double>()) || !std::isfinite(q[1].get<double>()) ||
                    !(q[0].get<double>() > 0) || !(q[1].get<double>() > 0))
                    r.fail(at,
                           "expected [bytes, seconds], both above zero, got " + describeJson(q));
                r.check(q[0].get<double>(), at + "[0]", kPointBytes);
                r.check(q[1].get<double>(), at + "[1]", kSeconds);
                if (k > 0 && !(q[0].get<double>() > fit.points.back().first))
                    r.fail(at, "bytes " + describeJson(q[0]) +
                                   " not above the previous point's (points ascend by bytes)");
                fit.points.push_back({q[0].get<double>(), q[1].get<double>()});
            }
            if (fit.points.size() == 1)
                r.fail(path + ".points", "one point: a fit is measured at two sizes at least");
        }
        p.fits.push_back(fit);
    }
    if (j.contains("pieces")) {
        const nlohmann::json& pieces = r.array(j, "$", "pieces");
        for (std::size_t i = 0; i < pieces.size(); ++i) {
            const std::string path = "$.pieces[" + std::to_string(i) + "]";
            const nlohmann::json& x = pieces[i];
            ModelPieceTimes t;
            t.n_layer = r.count(x, path, "n_layer", 1);
            t.n_head = r.count(x, path, "n_head", 1);
            t.n_embd = r.count(x, path, "n_embd", 1);
            t.vocab_size = r.count(x, path, "vocab_size", 1);
            t.padded_vocab_size = r.count(x, path, "padded_vocab_size", t.vocab_size);
            t.seq_len = r.count(x, path, "seq_len", 1);
            t.micro_batch = r.count(x, path, "micro_batch", 1);
            // The rest of the model's identity; a profile from before it was kept timed
            // GPT-2 with standard attention (ModelPieceTimes' defaults).
            if (x.contains("family")) {
                const std::string name = r.text(x, path, "family");
                const ModelFamily* f = findModelFamily(name);
                if (!f)
                    r.fail(path + ".family", "not a model family: \"" + name + "\"");
                t.family = f->id;
            }
            for (auto [key, field] : {std::pair{"n_kv_head", &ModelPieceTimes::n_kv_head},
                                      std::pair{"head_dim", &ModelPieceTimes::head_dim},
                                      std::pair{"ffn_dim", &ModelPieceTimes::ffn_dim}})
                if (x.contains(key))
                    t.*field = r.count(x, path, key, 0);
            for (auto [key, field] : {std::pair{"tied_head", &ModelPieceTimes::tied_head},
                                      std::pair{"qkv_bias", &ModelPieceTimes::qkv_bias}})
                if (x.contains(key)) {
                    if (!x[key].is_boolean())
                        r.fail(path + "." + key,
                               "expected true or false, got " + describeJson(x[key]));
                    t.*field = x[key].get<bool>();
                }
            if (x.contains("attention")) {
                const std::string name = r.text(x, path, "attention");
                const auto a = attentionKernelFromName(name);
                if (!a)
                    r.fail(path + ".attention", "not an attention kernel: \"" + name + "\"");
                t.attention = *a;
            }
            const nlohmann::json& seconds = r.at(x, path, "seconds");
            for (std::size_t c = 1; c < kModelComputeCount; ++c) {
                const std::string name(kModelComputeNames[c]);
                if (!(seconds.is_object() && seconds.contains(name) && seconds[name].is_null()))
                    t.seconds[c] = r.within(seconds, path + ".seconds", name, kSeconds);
            }
            for (auto it = seconds.begin(); seconds.is_object() && it != seconds.end(); ++it)
                if (std::find(kModelComputeNames.begin() + 1, kModelComputeNames.end(), it.key()) ==
                    kModelComputeNames.end())
                    r.fail(path + ".seconds." + it.key(), "not a piece of the model's compute");
            p.pieces.push_back(t);
        }
    }
    // comm_beside_compute and compute_beside_comm: the same shape of entry, a rate per link
    // class and rank count, a share of the rate alone.
    auto readBeside = [&](const char* key, auto& out) {
        if (!j.contains(key))
            return;
        const nlohmann::json& beside = r.array(j, "$", key);
        for (std::size_t i = 0; i < beside.size(); ++i) {
            const std::string path = "$." + std::string(key) + "[" + std::to_string(i) + "]";
            const double rate = r.positive(beside[i], path, "rate");
            if (rate > 1)
                r.fail(path + ".rate", "expected a share of the rate alone, at most 1, got " +
                                           describeJson(beside[i]["rate"]));
            r.check(rate, path + ".rate", kShare);
            const std::string link = r.text(beside[i], path, "link");
            if (link != kLinkClassNames[0] && link != kLinkClassNames[1])
                r.fail(path + ".link", "expected \"intra_host\" or \"inter_host\", got " +
                                           describeJson(beside[i]["link"]));
            out.push_back({link == kLinkClassNames[0] ? LinkClass::IntraHost : LinkClass::InterHost,
                           r.count(beside[i], path, "ranks", 2), rate});
        }
    };
    readBeside("comm_beside_compute", p.comm_beside_compute);
    readBeside("compute_beside_comm", p.compute_beside_comm);
    if (j.contains("reference_pass")) {
        const nlohmann::json& x = j["reference_pass"];
        const std::string path = "$.reference_pass";
        ReferencePass ref;
        ref.model = r.text(x, path, "model");
        if (ref.model.empty())
            r.fail(path + ".model", "expected a model preset's name, got \"\"");
        ref.micro_batch = r.count(x, path, "micro_batch", 1);
        ref.seconds = r.within(x, path, "seconds", kSeconds);
        p.reference_pass = ref;
    }
    if (j.contains("peak_flops"))
        p.peak_flops = r.within(j, "$", "peak_flops", kRate);
    if (j.contains("intra_link"))
        p.intra_link = linkFrom(r, j["intra_link"], "$.intra_link");
    if (j.contains("inter_link"))
        p.inter_link = linkFrom(r, j["inter_link"], "$.inter_link");
    if (j.contains("gpu")) {
        const nlohmann::json& x = j["gpu"];
        const std::string path = "$.gpu";
        GpuModel g;
        g.peak_flops = r.within(x, path, "peak_flops", kRate);
        g.matmul_ceiling = r.within(x, path, "matmul_ceiling", kFraction);
        g.ceiling_k = r.within(x, path, "ceiling_k", kDimension);
        g.sms = r.count(x, path, "sms", 1);
        g.memory_bytes_per_s = r.within(x, path, "memory_bytes_per_s", kBandwidth);
        g.memory_fraction = r.within(x, path, "memory_fraction", kFraction);
        g.flash_forward = r.within(x, path, "flash_forward", kFraction);
        g.flash_backward = r.within(x, path, "flash_backward", kFraction);
        g.activation_bytes = r.within(x, path, "activation_bytes", kElementBytes);
        g.intra_bus_efficiency = r.within(x, path, "intra_bus_efficiency", kFraction);
        g.inter_bus_efficiency = r.within(x, path, "inter_bus_efficiency", kFraction);
        p.gpu = g;
    }
    if (p.fits.empty() && !p.intra_link)
        r.fail("$.fits", "empty, and no intra_link: the profile cannot time a collective");
    return p;
}

ModelPieceTimes modelPieceKey(const ModelShape& s, int B, int T) {
    ModelPieceTimes t;
    t.n_layer = s.n_layer;
    t.n_head = s.n_head;
    t.n_embd = s.n_embd;
    t.vocab_size = s.vocab_size;
    t.padded_vocab_size = s.padded_vocab_size;
    t.seq_len = T;
    t.micro_batch = B;
    t.family = s.family;
    t.n_kv_head = s.n_kv_head;
    t.head_dim = s.head_dim;
    t.ffn_dim = s.ffn_dim;
    t.tied_head = s.tied_head;
    t.qkv_bias = s.qkv_bias;
    t.attention = s.attention;
    return t;
}

const ModelPieceTimes* findModelPieces(const std::vector<ModelPieceTimes>& pieces,
                                       const ModelShape& shape, int B, int T) {
    // kv heads and head width compared as the shape means them (0: the default).
    auto kv = [](const ModelPieceTimes& t) { return t.n_kv_head > 0 ? t.n_kv_head : t.n_head; };
    auto hd = [](const ModelPieceTimes& t) {
        return t.head_dim > 0 ? t.head_dim : t.n_embd / t.n_head;
    };
    const ModelPieceTimes k = modelPieceKey(shape, B, T);
    for (const ModelPieceTimes& t : pieces)
        if (t.n_layer == k.n_layer && t.n_head == k.n_head && t.n_embd == k.n_embd &&
            t.vocab_size == k.vocab_size && t.padded_vocab_size == k.padded_vocab_size &&
            t.seq_len == T && t.micro_batch == B && t.family == k.family && kv(t) == kv(k) &&
            hd(t) == hd(k) && t.ffn_dim == k.ffn_dim && t.tied_head == k.tied_head &&
            t.qkv_bias == k.qkv_bias && t.attention == k.attention)
            return &t;
    return nullptr;
}

MachineProfile loadMachineProfile(const std::string& path) {
    const BoundedFileText file = readBoundedTextFile(path);
    if (!file.text)
        throw PlanError(path + ": " + file.error);
    const auto parsed = parseJsonText<nlohmann::json>(*file.text);
    if (parsed.error)
        throw PlanError(
            path + ": not JSON: " + (parsed.error->path.empty() ? "" : parsed.error->path + ": ") +
            parsed.error->message);
    return machineProfileFromJson(*parsed.doc, path);
}

} // namespace zerolab
