// The engine's step replayed in time (step_time.h): one compute thread and one
// communication channel, collectives running one at a time in issue order, each at
// StepCosts::comm_rate_beside_compute while the compute thread computes and at its full
// rate while it waits. A collective's end is known only once the compute thread's time has
// reached it: the channel is advanced as compute and waits advance the clock.
#include "runtime/planner/step_time.h"

#include "runtime/model/model_flops.h"
#include "runtime/planner/engine_buffers.h"
#include "runtime/planner/gpu_physics.h"
#include "runtime/planner/planner.h"
#include "runtime/planner/rank_interpolation.h"
#include "runtime/planner/step_ops.h"
#include "runtime/planner/step_schedule.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>

namespace zerolab {

namespace {

// The gradient norm's all-reduce: one double.
constexpr double kNormBytes = 8;

SpanKind spanOf(ModelCompute c) {
    switch (c) {
    case ModelCompute::BlockRecompute:
        return SpanKind::Recompute;
    case ModelCompute::HeadBackward:
    case ModelCompute::FinalNormBackward:
    case ModelCompute::BlockBackward:
    case ModelCompute::EncoderBackward:
        return SpanKind::Backward;
    default:
        return SpanKind::Forward;
    }
}

class Replay {
public:
    Replay(const TrainConfig& config, const StepCosts& costs, bool replay_each)
        : m_config(config), m_costs(costs), m_replayEach(replay_each), m_world(config.batch.world),
          m_stage(config.zero.stage), m_bf16(config.precision == Precision::Bf16Mixed),
          m_layout(makeParamLayout(config.model.shape, m_world)),
          m_plan(planEngineBuffers(m_layout, m_world, m_stage, config.precision,
                                   config.zero.overlap_comm)),
          m_slots(m_layout.unitCount(), std::max(1, m_plan.gather_block_slots)),
          m_gatherPending(static_cast<std::size_t>(1 + std::max(1, m_plan.gather_block_slots)), -1),
          m_buckets(reduceBuckets(m_layout, m_stage, config.zero.reduce_scatter,
                                  config.zero.reduce_bucket_size)) {}

    StepTimeForecast run();

private:
    struct Pending {
        int collective;
        int gradSlot; // the gradient slot it reduces (stages 2-3), -1: none
        int unit;
    };
    // The replay between two micro-steps: what decides the next one (the channel idle,
    // the gather slots, the parameter slots) and where it starts (its first span and
    // collective, the clock, the sums).
    struct Boundary {
        bool idle = false; // every collective issued has ended, no reduce is pending
        GatherSlots slots;
        std::array<int, 2> paramSlotUnit{};
        std::size_t span = 0, collective = 0;
        double t = 0, forward = 0, backward = 0, recompute = 0, engine = 0, beside = 0;
    };
    Boundary boundary() const;
    // Micro-steps next .. next + count - 1 as the one that ran from `from` to `to`, shifted
    // in time: counted in every sum, drawn up to kDrawnMicroSteps.
    void repeat(const Boundary& from, const Boundary& to, int next, int count);
    // A collective's issue number in the step (TimelineSpan::seq), past the undrawn ones.
    int seqOf(int index) const {
        return index >= m_gapFrom ? static_cast<int>(std::min<long long>(
                                        index + m_gap, std::numeric_limits<int>::max()))
                                  : index;
    }
    double esz() const { return m_bf16 ? 2 : 4; }
    std::int64_t padded(int u) const {
        return m_layout.units[static_cast<std::size_t>(u)].padded_elems;
    }
    std::int64_t slice(int u) const { return padded(u) / m_world; }

    // `seconds` of compute alone, `beside` were all of it to run while a collective is in
    // flight (StepCosts::model_beside_comm; at most `seconds`: no slowdown).
    void compute(SpanKind kind, int unit, double seconds, double beside, double* bucket);
    double engineSeconds(OpKind op, double elements) const {
        return m_costs.engine_op(op, elements);
    }
    double engineBeside(OpKind op, double elements) const {
        return m_costs.engine_op_beside_comm ? m_costs.engine_op_beside_comm(op, elements) : 0;
    }
    void engineOp(OpKind op, double elements, SpanKind kind = SpanKind::Backward, int unit = -1) {
        compute(kind, unit, engineSeconds(op, elements), engineBeside(op, elements),
                &m_out.engine_s);
    }
    int issue(Collective c, double bytes, int unit);
    void wait(int index);
    // The channel's work from m_commT to `to` at `rate` (compute running: the rate beside
    // compute; waiting: 1), or with until >= 0 at rate 1 until that collective has ended.
    void advance(double to, double rate, int until = -1);
    void completeReduce(const Pending& p);
    void waitPending();
    void params(int u);
    void release(int u);
    void grads(int u);
    void gradsReady(int u);
    void reduceRange(const ReduceBucket& b, bool async);
    void microStep(const std::vector<UnitCall>& calls);
    void finishStep();

    const TrainConfig& m_config;
    const StepCosts& m_costs;
    bool m_replayEach;
    int m_world, m_stage;
    bool m_bf16;
    ParamLayout m_layout;
    EngineBufferPlan m_plan;
    GatherSlots m_slots;
    std::vector<int> m_gatherPending; // per gather slot: its collective in flight, -1 none
    std::vector<ReduceBucket> m_buckets;
    std::vector<Pending> m_pending;
    std::vector<int> m_gradSlotOfUnit;
    int m_nextBlockSlot = 0;
    std::array<int, 2> m_paramSlotUnit{-1, -1};
    bool m_last = true;
    int m_micro = -1;
    double m_t = 0;
    double m_commT = 0;           // the channel's work is accounted up to this time
    std::size_t m_head = 0;       // the first collective not yet ended
    std::vector<double> m_remain; // per collective: its seconds of work still to do
    std::vector<bool> m_waited;
    // The repeats not drawn: their collectives' times per kind, and the issue numbers they
    // took (collectives from index m_gapFrom on are numbered m_gap later).
    std::array<double, kCollectiveCount> m_undrawnInFlight{}, m_undrawnExposed{};
    int m_gapFrom = std::numeric_limits<int>::max();
    long long m_gap = 0;
    StepTimeForecast m_out;
};

void Replay::compute(SpanKind kind, int unit, double seconds, double beside, double* bucket) {
    if (seconds <= 0)
        return;
    TimelineSpan s;
    s.kind = kind;
    s.unit = unit;
    s.micro = m_micro;
    s.start_us = m_t * 1e6;
    // The piece's work in seconds alone; while a collective is in flight it progresses at
    // seconds / beside of its rate, and the collective at the rate beside compute. The
    // channel stays busy from now until every collective issued so far has ended (none is
    // issued while the piece runs): the slowed part ends at the earlier of the piece's end
    // and the last of them.
    const double slow = beside > seconds ? beside / seconds : 1;
    const double rate = m_costs.comm_rate_beside_compute;
    double left = seconds, extra = 0;
    std::vector<CollectiveForecast>& all = m_out.collectives;
    while (slow > 1 && left > 0 && m_head < all.size()) {
        // The head collective's end at the rate beside compute, from the channel's clock.
        double end = std::max(m_commT, m_t);
        if (all[m_head].start_s >= 0 || all[m_head].issue_s <= end)
            end += m_remain[m_head] / rate;
        else
            break; // not started: cannot happen (issued by this thread before now)
        if (m_t + left * slow <= end) {
            advance(m_t + left * slow, rate);
            m_t += left * slow;
            extra += left * (slow - 1);
            left = 0;
            break;
        }
        const double before = m_t;
        advance(end, rate, static_cast<int>(m_head));
        m_t = std::max(m_t, all[m_head - 1].end_s);
        left -= (m_t - before) / slow;
        extra += (m_t - before) * (1 - 1 / slow);
    }
    if (left > 0) {
        advance(m_t + left, rate);
        m_t += left;
    }
    s.end_us = m_t * 1e6;
    m_out.timeline.spans.push_back(s);
    *bucket += seconds;
    m_out.compute_beside_comm_s += extra;
}

void Replay::advance(double to, double rate, int until) {
    std::vector<CollectiveForecast>& all = m_out.collectives;
    while (m_head < all.size() && (until >= 0 ? static_cast<int>(m_head) <= until : m_commT < to)) {
        CollectiveForecast& f = all[m_head];
        if (f.start_s < 0) { // it starts when the channel is free and it has been issued
            f.start_s = std::max(m_commT, f.issue_s);
            m_commT = f.start_s;
            if (until < 0 && m_commT >= to)
                break;
        }
        double& left = m_remain[m_head];
        const double can = until >= 0 ? left : (to - m_commT) * rate;
        if (left <= can) {
            m_commT += left / rate;
            f.end_s = m_commT;
            left = 0;
            ++m_head;
        } else {
            left -= can;
            m_commT = to;
        }
    }
    if (until < 0)
        m_commT = std::max(m_commT, to);
}

int Replay::issue(Collective c, double bytes, int unit) {
    CollectiveForecast f;
    f.collective = c;
    f.unit = unit;
    f.micro = m_micro;
    f.bytes = bytes;
    f.issue_s = m_t;
    f.start_s = f.end_s = -1; // known as the channel reaches it (advance)
    m_out.collectives.push_back(f);
    m_remain.push_back(m_costs.collective(c, bytes));
    m_waited.push_back(false);
    return static_cast<int>(m_out.collectives.size()) - 1;
}

void Replay::wait(int index) {
    if (index < 0 || m_waited[static_cast<std::size_t>(index)])
        return;
    m_waited[static_cast<std::size_t>(index)] = true;
    if (static_cast<std::size_t>(index) >= m_head)
        advance(m_t, 1, index); // the compute thread idle: the channel at its full rate
    CollectiveForecast& f = m_out.collectives[static_cast<std::size_t>(index)];
    if (f.end_s <= m_t)
        return;
    TimelineSpan s;
    s.kind = SpanKind::Wait;
    s.micro = m_micro;
    s.collective = f.collective;
    s.seq = seqOf(index);
    s.start_us = m_t * 1e6;
    s.end_us = f.end_s * 1e6;
    m_out.timeline.spans.push_back(s);
    f.exposed_s += f.end_s - m_t;
    m_t = f.end_s;
}

void Replay::completeReduce(const Pending& p) {
    wait(p.collective);
    if (p.gradSlot >= 0)
        engineOp(OpKind::Axpy, static_cast<double>(slice(p.unit)));
}

void Replay::waitPending() {
    for (const Pending& p : m_pending)
        completeReduce(p);
    m_pending.clear();
}

void Replay::params(int u) {
    if (m_stage == 3) {
        const GatherSlots::Acquire a = m_slots.acquire(u);
        auto act = [&](const std::vector<GatherSlots::Action>& actions) {
            for (const GatherSlots::Action& x : actions) {
                int& pending = m_gatherPending[static_cast<std::size_t>(x.slot)];
                if (x.kind == GatherSlots::ActionKind::Wait) {
                    wait(pending);
                    pending = -1;
                } else {
                    pending = issue(Collective::AllGather,
                                    static_cast<double>(padded(x.unit)) * esz(), x.unit);
                }
            }
        };
        act(a.before);
        if (m_bf16)
            engineOp(OpKind::Cast, static_cast<double>(padded(u)), SpanKind::Forward, u);
        act(a.after);
        return;
    }
    if (!m_bf16)
        return;
    const int slot = u == 0 ? 0 : 1;
    if (m_paramSlotUnit[slot] == u)
        return;
    m_paramSlotUnit[slot] = u;
    engineOp(OpKind::Cast, static_cast<double>(padded(u)), SpanKind::Forward, u);
}

void Replay::release(int u) {
    if (m_stage == 3) {
        m_slots.release(u);
        return;
    }
    const int slot = u == 0 ? 0 : 1;
    if (m_paramSlotUnit[slot] == u)
        m_paramSlotUnit[slot] = -1;
}

void Replay::grads(int u) {
    if (m_stage == 3)
        m_slots.setBackward(true);
    if (m_stage < 2 && !m_bf16)
        return;
    if (m_gradSlotOfUnit[static_cast<std::size_t>(u)] >= 0)
        return;
    int slot = 0;
    if (u != 0) {
        slot = 1 + m_nextBlockSlot;
        m_nextBlockSlot = (m_nextBlockSlot + 1) % m_plan.grad_block_slots;
        for (Pending& p : m_pending)
            if (p.gradSlot == slot) {
                completeReduce(p);
                p.gradSlot = -2; // done
            }
        std::erase_if(m_pending, [](const Pending& p) { return p.gradSlot == -2; });
    }
    engineOp(OpKind::Zero, static_cast<double>(padded(u)), SpanKind::Backward, u);
    m_gradSlotOfUnit[static_cast<std::size_t>(u)] = slot;
}

void Replay::gradsReady(int u) {
    if (m_stage >= 2) {
        const int slot = m_gradSlotOfUnit[static_cast<std::size_t>(u)];
        m_gradSlotOfUnit[static_cast<std::size_t>(u)] = -1;
        if (m_bf16)
            engineOp(OpKind::Cast, static_cast<double>(padded(u)), SpanKind::Backward, u);
        m_pending.push_back(
            {issue(Collective::ReduceScatter, static_cast<double>(padded(u)) * esz(), u), slot, u});
        if (!m_config.zero.overlap_comm)
            waitPending();
        return;
    }
    if (m_bf16) {
        engineOp(OpKind::Axpy, static_cast<double>(padded(u)), SpanKind::Backward, u);
        m_gradSlotOfUnit[static_cast<std::size_t>(u)] = -1;
    }
    if (!m_last || !m_config.zero.overlap_comm)
        return;
    for (const ReduceBucket& b : m_buckets)
        if (b.first_unit == u)
            reduceRange(b, true);
}

void Replay::reduceRange(const ReduceBucket& b, bool async) {
    if (m_stage == 1 && m_config.zero.reduce_scatter) {
        for (int u = b.last_unit; u >= b.first_unit; --u)
            m_pending.push_back(
                {issue(Collective::ReduceScatter, static_cast<double>(padded(u)) * esz(), u), -1,
                 u});
    } else {
        const UnitLayout& F = m_layout.units[static_cast<std::size_t>(b.first_unit)];
        const UnitLayout& L = m_layout.units[static_cast<std::size_t>(b.last_unit)];
        const double elems = static_cast<double>(L.offset + L.padded_elems - F.offset);
        m_pending.push_back(
            {issue(Collective::AllReduce, elems * esz(), b.first_unit), -1, b.first_unit});
    }
    if (!async)
        waitPending();
}

void Replay::microStep(const std::vector<UnitCall>& calls) {
    if (m_stage == 3)
        m_slots.setBackward(false);
    m_gradSlotOfUnit.assign(m_layout.units.size(), -1);
    m_nextBlockSlot = 0;
    for (const UnitCall& c : calls) {
        switch (c.kind) {
        case UnitCallKind::Params:
            params(c.unit);
            break;
        case UnitCallKind::Release:
            release(c.unit);
            break;
        case UnitCallKind::Grads:
            grads(c.unit);
            break;
        case UnitCallKind::GradsReady:
            gradsReady(c.unit);
            break;
        case UnitCallKind::Recomputing:
            break;
        }
        const double s = m_costs.model[static_cast<std::size_t>(c.then)];
        const double beside = m_costs.model_beside_comm[static_cast<std::size_t>(c.then)];
        const SpanKind kind = spanOf(c.then);
        compute(kind, c.unit, s, beside,
                kind == SpanKind::Forward     ? &m_out.forward_s
                : kind == SpanKind::Recompute ? &m_out.recompute_s
                                              : &m_out.backward_s);
    }
    // endMicroStep
    if (m_stage >= 2 || !m_last || m_config.zero.overlap_comm) {
        waitPending();
        return;
    }
    for (const ReduceBucket& b : m_buckets)
        reduceRange(b, false);
}

void Replay::finishStep() {
    waitPending();
    m_micro = -1;
    const double owned = static_cast<double>(m_plan.optim_state);
    compute(SpanKind::Optimizer, -1, engineSeconds(OpKind::SumSquares, owned),
            engineBeside(OpKind::SumSquares, owned), &m_out.optimizer_s);
    if (m_stage > 0)
        wait(issue(Collective::AllReduce, kNormBytes, -1));
    const OpKind adamw = m_bf16 ? OpKind::AdamwMixed : OpKind::Adamw;
    compute(SpanKind::Optimizer, -1, engineSeconds(adamw, owned), engineBeside(adamw, owned),
            &m_out.optimizer_s);
    if (m_stage == 1 || m_stage == 2) {
        std::vector<int> inflight;
        for (const UnitLayout& U : m_layout.units) {
            if (m_config.zero.allgather_partitions) {
                inflight.push_back(issue(Collective::AllGather,
                                         static_cast<double>(U.padded_elems) * esz(), U.index));
            } else {
                for (int owner = 0; owner < m_world; ++owner)
                    wait(issue(Collective::Broadcast, static_cast<double>(slice(U.index)) * esz(),
                               U.index));
            }
        }
        for (int i : inflight)
            wait(i);
    }
    if (m_stage == 3) {
        for (int& p : m_gatherPending) {
            wait(p);
            p = -1;
        }
        m_slots.invalidate();
    }
}

Replay::Boundary Replay::boundary() const {
    return {m_head == m_out.collectives.size() && m_pending.empty(),
            m_slots,
            m_paramSlotUnit,
            m_out.timeline.spans.size(),
            m_out.collectives.size(),
            m_t,
            m_out.forward_s,
            m_out.backward_s,
            m_out.recompute_s,
            m_out.engine_s,
            m_out.compute_beside_comm_s};
}

void Replay::repeat(const Boundary& from, const Boundary& to, int next, int count) {
    const double d = to.t - from.t;
    const int drawn = std::clamp(kDrawnMicroSteps - 1 - next, 0, count);
    const auto issued = static_cast<int>(to.collective - from.collective);
    for (int j = 1; j <= drawn; ++j) {
        const double shift = j * d;
        for (std::size_t i = from.span; i < to.span; ++i) {
            TimelineSpan s = m_out.timeline.spans[i];
            s.micro += j;
            s.start_us += shift * 1e6;
            s.end_us += shift * 1e6;
            if (s.kind == SpanKind::Wait)
                s.seq += j * issued;
            m_out.timeline.spans.push_back(s);
        }
        for (std::size_t i = from.collective; i < to.collective; ++i) {
            CollectiveForecast f = m_out.collectives[i];
            f.micro += j;
            f.issue_s += shift;
            f.start_s += shift;
            f.end_s += shift;
            m_out.collectives.push_back(f);
            m_remain.push_back(0);
            m_waited.push_back(true);
        }
    }
    m_head = m_out.collectives.size();
    const int undrawn = count - drawn;
    for (std::size_t i = from.collective; i < to.collective; ++i) {
        const CollectiveForecast& f = m_out.collectives[i];
        const auto k = static_cast<std::size_t>(f.collective);
        m_undrawnInFlight[k] += undrawn * (f.end_s - f.start_s);
        m_undrawnExposed[k] += undrawn * f.exposed_s;
    }
    m_gapFrom = static_cast<int>(m_out.collectives.size());
    m_gap = static_cast<long long>(undrawn) * issued;
    m_out.undrawn_micro_steps = undrawn;
    m_out.forward_s += count * (to.forward - from.forward);
    m_out.backward_s += count * (to.backward - from.backward);
    m_out.recompute_s += count * (to.recompute - from.recompute);
    m_out.engine_s += count * (to.engine - from.engine);
    m_out.compute_beside_comm_s += count * (to.beside - from.beside);
    m_t += count * d;
    m_commT += count * d;
}

StepTimeForecast Replay::run() {
    m_out.timeline.world = m_world;
    // The step as the trainer times it (step_ms: from beginStep to the end of finishStep;
    // the control all-reduce before it is not counted): beginStep zeroes the gradients.
    engineOp(OpKind::Zero, static_cast<double>(m_plan.grads), SpanKind::Forward);
    const int A = m_config.batch.grad_accum;
    const std::vector<UnitCall> calls = modelUnitCalls(m_layout, m_config.model.recompute);
    std::optional<Boundary> before; // where the micro-step before this one started
    for (int m = 0; m < A; ++m) {
        if (!m_replayEach && m < A - 1) {
            Boundary now = boundary();
            if (before && before->idle && now.idle && before->slots == now.slots &&
                before->paramSlotUnit == now.paramSlotUnit) {
                // Micro-step m starts as m - 1 did: m .. A - 2 repeat it; the last runs.
                repeat(*before, now, m, A - 1 - m);
                m = A - 1;
            } else {
                before = std::move(now);
            }
        }
        m_micro = m;
        m_last = m == A - 1;
        microStep(calls);
        ++m_out.replayed_micro_steps;
    }
    finishStep();
    if (!m_out.collectives.empty())
        advance(m_t, 1, static_cast<int>(m_out.collectives.size()) - 1); // never waited for
    for (const CollectiveForecast& f : m_out.collectives) {
        const auto k = static_cast<std::size_t>(f.collective);
        m_out.in_flight_s[k] += f.end_s - f.start_s;
        m_out.exposed_s[k] += f.exposed_s;
        m_out.comm_in_flight_s += f.end_s - f.start_s;
        m_out.comm_exposed_s += f.exposed_s;
        TimelineSpan s;
        s.kind = SpanKind::Collective;
        s.unit = f.unit;
        s.micro = f.micro;
        s.collective = f.collective;
        s.bytes = static_cast<long long>(f.bytes);
        s.seq = seqOf(static_cast<int>(&f - m_out.collectives.data()));
        s.issue_us = f.issue_s * 1e6;
        s.start_us = f.start_s * 1e6;
        s.end_us = f.end_s * 1e6;
        m_out.timeline.spans.push_back(s);
    }
    for (std::size_t k = 0; k < kCollectiveCount; ++k) {
        m_out.in_flight_s[k] += m_undrawnInFlight[k];
        m_out.exposed_s[k] += m_undrawnExposed[k];
        m_out.comm_in_flight_s += m_undrawnInFlight[k];
        m_out.comm_exposed_s += m_undrawnExposed[k];
    }
    m_out.compute_s = m_out.forward_s + m_out.backward_s + m_out.recompute_s + m_out.optimizer_s +
                      m_out.engine_s + m_out.compute_beside_comm_s;
    m_out.step_s = std::max(m_t, m_commT);
    return m_out;
}

std::string percent(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f%%", x * 100);
    return buf;
}

} // namespace

StepCosts stepCosts(const TrainConfig& config, const MachineProfile& profile,
                    const ClusterShape& cluster, double* compute_scale) {
    const int world = config.batch.world;
    if (cluster.hosts < 1 || world % cluster.hosts != 0)
        throw PlanError("hosts must divide the world: " + std::to_string(world) + " ranks on " +
                        std::to_string(cluster.hosts) + " hosts");
    // The ranks that share one machine's cores: a host's, or all of them on emulated hosts.
    const int sharing = profile.hosts_share_cores ? world : world / cluster.hosts;
    const double demand = static_cast<double>(sharing) * profile.threads_per_rank;
    double scale =
        demand > profile.cores ? demand / profile.cores * profile.oversubscription_factor : 1.0;
    // Measured at that many ranks, or between two measured counts (rank_interpolation.h).
    if (const std::optional<RankFactor> measured = rankFactor(profile.compute_slowdown, sharing))
        scale = measured->value;
    if (compute_scale)
        *compute_scale = scale;
    const int B = config.batch.micro_batch, T = config.model.seq_len;
    StepCosts c;
    const Recompute recompute = config.model.recompute;
    // A GPU preset forecasts an engine of today's class: its attention is flash attention,
    // whichever kernel the config names (gpu_physics.h prices either kind as flash).
    ModelShape shape = config.model.shape;
    if (profile.gpu)
        shape.attention = AttentionKernel::Flash;
    auto kernelsOn = [&](ModelCompute m, const MachineProfile& on) {
        std::vector<KernelOp> ops = modelComputeOps(m, shape, B, T, recompute);
        if (on.gpu)
            ops = gpuEngineOps(std::move(ops), shape, B, T);
        return opsSeconds(ops, on);
    };
    auto kernels = [&](ModelCompute m) { return kernelsOn(m, profile); };
    const ModelPieceTimes* in_situ = findModelPieces(profile.pieces, config.model.shape, B, T);
    c.model_in_situ = in_situ != nullptr;
    for (std::size_t i = 0; i < c.model.size(); ++i) {
        const auto m = static_cast<ModelCompute>(i);
        double s = kernels(m);
        if (in_situ && m == ModelCompute::BlockRecompute) {
            if (recompute == Recompute::Full)
                s = in_situ->seconds[i];
            else if (s > 0)
                s *= in_situ->seconds[static_cast<std::size_t>(ModelCompute::BlockForward)] /
                     kernels(ModelCompute::BlockForward);
        } else if (in_situ && m != ModelCompute::None) {
            s = in_situ->seconds[i];
        }
        c.model[i] = scale * s;
    }
    c.engine_op = [&profile, scale](OpKind k, double n) { return scale * n / opRate(profile, k); };
    const LinkClass link = cluster.hosts > 1 ? LinkClass::InterHost : LinkClass::IntraHost;
    // Keyed as the collectives' fits are: the link class and the ranks of the collective.
    if (const std::optional<RankFactor> rate = besideRate(profile.comm_beside_compute, link, world))
        c.comm_rate_beside_compute = rate->value;
    // Compute beside a collective in flight: a GPU's kernels on the SMs and HBM that NCCL
    // leaves them (gpu_physics.h); a calibrated profile's measured share of the rate alone
    // on the cores the progress thread shares (MachineProfile::compute_beside_comm).
    if (profile.gpu && world > 1) {
        auto beside =
            std::make_shared<const MachineProfile>(besideCollective(profile, world, cluster.hosts));
        for (std::size_t i = 0; i < c.model.size(); ++i)
            c.model_beside_comm[i] = scale * kernelsOn(static_cast<ModelCompute>(i), *beside);
        c.engine_op_beside_comm = [beside, scale](OpKind k, double n) {
            return scale * n / opRate(*beside, k);
        };
        c.beside_comm_source = "gpu";
    } else if (world > 1) {
        const std::optional<RankFactor> b = besideRate(profile.compute_beside_comm, link, world);
        if (b && b->value < 1) {
            for (std::size_t i = 0; i < c.model.size(); ++i)
                c.model_beside_comm[i] = c.model[i] / b->value;
            c.engine_op_beside_comm = [&profile, scale, rate = b->value](OpKind k, double n) {
                return scale * n / opRate(profile, k) / rate;
            };
            c.beside_comm_source = "measured";
            c.model_beside_comm_rate = b->value;
        }
        if (c.beside_comm_source.empty())
            c.beside_comm_source = "none";
    }
    if (profile.gpu) {
        // NCCL's model over the cluster's hosts (gpu_physics.h); checked now, so that a
        // missing link is an error before the replay.
        ncclSeconds(profile, Collective::AllReduce, world, cluster.hosts, 1);
        c.collective = [&profile, world, hosts = cluster.hosts](Collective k, double bytes) {
            return ncclSeconds(profile, k, world, hosts, bytes);
        };
        return c;
    }
    // Checked now, so that a missing fit is an error before the replay.
    for (std::size_t k = 0; k < kCollectiveCount; ++k)
        if (world > 1 && (k != static_cast<std::size_t>(Collective::Broadcast) ||
                          !config.zero.allgather_partitions))
            collectiveSeconds(profile, static_cast<Collective>(k), link, world, 1);
    c.collective = [&profile, link, world](Collective k, double bytes) {
        return collectiveSeconds(profile, k, link, world, bytes);
    };
    return c;
}

StepTimeForecast simulateStep(const TrainConfig& config, const StepCosts& costs, bool replay_each) {
    return Replay(config, costs, replay_each).run();
}

StepTimeForecast predictStepTime(const TrainConfig& config, const MachineProfile& profile,
                                 const ClusterShape& cluster) {
    double scale = 1;
    const StepCosts costs = stepCosts(config, profile, cluster, &scale);
    StepTimeForecast f = simulateStep(config, costs);
    f.compute_scale = scale;
    const int world = config.batch.world, T = config.model.seq_len;
    const double tokens =
        static_cast<double>(world) * config.batch.micro_batch * T * config.batch.grad_accum;
    f.tokens_per_s = tokens / f.step_s;
    double peak = profile.peak_flops;
    for (const MatmulRate& r : profile.matmuls)
        peak = profile.peak_flops > 0
                   ? peak
                   : std::max({peak, r.forward_flops_per_s, r.backward_flops_per_s});
    if (!(peak > 0))
        peak = std::max(profile.rates[0], profile.rates[1]);
    f.mfu = modelFlopsPerToken(config.model.shape, T) * f.tokens_per_s / (world * peak);
    if (!std::isfinite(f.step_s) || !std::isfinite(f.tokens_per_s) || !std::isfinite(f.mfu))
        throw PlanError("no step-time forecast on profile '" + profile.name +
                        "': its step time or tokens/s is not a finite number (its rates, fits "
                        "or slowdowns are beyond what a machine does)");
    f.assumptions.push_back("profile " + profile.source + " '" + profile.name + "'" +
                            (profile.date.empty() ? std::string() : " of " + profile.date));
    if (profile.gpu)
        f.assumptions.push_back(
            "an engine of today's class on the GPU (llm.c, PyTorch FSDP, DeepSpeed): flash "
            "attention, " +
            std::string(profile.gpu->activation_bytes == 2 ? "bf16" : "fp32") +
            " activations, fused elementwise kernels, NCCL; matmuls by shape up to " +
            percent(profile.gpu->matmul_ceiling) +
            " of the peak. zerolab's own GPU engine is not there yet (docs/gpu.md): this is "
            "the step such an engine takes, not the step zerolab-train takes today");
    f.assumptions.push_back(
        costs.model_in_situ
            ? "the model's compute as the profile timed it in situ at micro-batch " +
                  std::to_string(config.batch.micro_batch) + ", T " + std::to_string(T) +
                  "; the engine's own kernels from their rates"
            : "the model's compute summed from the profile's kernel rates (no in-situ pieces at "
              "micro-batch " +
                  std::to_string(config.batch.micro_batch) + ", T " + std::to_string(T) + ")");
    f.assumptions.push_back(
        std::to_string(world / cluster.hosts) + " ranks on each of " +
        std::to_string(cluster.hosts) + " host(s); collectives " +
        (cluster.hosts > 1 ? "cross hosts (the inter-host link)" : "stay within a host"));
    if (scale > 1)
        f.assumptions.push_back(
            "ranks share the machine: compute " + percent(scale - 1) + " slower (" +
            std::to_string(profile.hosts_share_cores ? world : world / cluster.hosts) +
            " ranks x " + std::to_string(profile.threads_per_rank) + " threads on " +
            std::to_string(profile.cores) + " cores)");
    if (f.undrawn_micro_steps > 0)
        f.assumptions.push_back("micro-steps repeat the steady one: all " +
                                std::to_string(config.batch.grad_accum) +
                                " are counted; the timeline draws " +
                                std::to_string(config.batch.grad_accum - f.undrawn_micro_steps) +
                                " of them (the first ones and the last)");
    // The fits stepCosts reads (a broadcast only without allgather_partitions), so that every
    // stage of a config says the same.
    for (const std::string& a : rankInterpolationAssumptions(
             profile, cluster.hosts > 1 ? LinkClass::InterHost : LinkClass::IntraHost, world,
             profile.hosts_share_cores ? world : world / cluster.hosts,
             !config.zero.allgather_partitions))
        f.assumptions.push_back(a);
    const ZeroConfig& z = config.zero;
    if (z.stage == 3 && (z.quantized_weights || z.hpz_partition_size > 1 || z.quantized_gradients))
        f.assumptions.push_back(
            "ZeRO++ (zero_quantized_weights, zero_hpz_partition_size, "
            "zero_quantized_gradients) is not in the step-time model yet: this is plain stage "
            "3's step; zerolab-plan --explain shows ZeRO++'s bytes");
    if (costs.beside_comm_source == "gpu")
        f.assumptions.push_back(
            "compute slowed while a collective is in flight, for the overlapped part only: "
            "NCCL's kernel holds " +
            std::to_string(kNcclChannels) + " of the " + std::to_string(profile.gpu->sms) +
            " SMs (one CTA a channel) and its traffic (twice the bytes its ring moves on the "
            "link) takes HBM bandwidth from memory-bound kernels (compute_beside_comm_s: what "
            "it adds)");
    else if (costs.beside_comm_source == "measured")
        f.assumptions.push_back(
            "compute slowed while a collective is in flight, for the overlapped part only, to "
            "the profile's measured compute_beside_comm (" +
            percent(costs.model_beside_comm_rate) +
            " of its rate; compute_beside_comm_s: what it adds)");
    else if (costs.beside_comm_source == "none")
        f.assumptions.push_back(
            "compute not slowed while a collective is in flight: the profile has no "
            "compute_beside_comm at " +
            std::to_string(world) +
            " ranks on this link (measured by zerolab-calibrate since 2026-12-07; an older "
            "profile lacks it)");
    f.assumptions.push_back(
        costs.comm_rate_beside_compute < 1
            ? "collectives run one at a time, in issue order, at " +
                  percent(costs.comm_rate_beside_compute) +
                  " of their rate while the ranks compute (compute and progress threads "
                  "outnumber the cores) and at their full rate while compute waits; the step as "
                  "step_ms times it (data loading, the control all-reduce and logging not "
                  "counted)"
            : "collectives run one at a time, in issue order, beside compute; the step as "
              "step_ms times it (data loading, the control all-reduce and logging not "
              "counted)");
    return f;
}

} // namespace zerolab
