// A lock-step simulation of one optimizer step on every rank: each rank has a compute
// clock and a communication stream; a collective runs on a rank's stream once it is
// issued and the stream is free, and ends for everybody when the last rank has
// joined plus its transfer time. The engine's order of operations is followed.
#include "timeline_fixture.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace zerolab {

namespace {

// GPT-2 small (C = 768, vocab 50257, T = 1024) with 6 blocks, bf16 parameters.
constexpr int kUnits = 8; // 0 embedding, 1..6 blocks, 7 final layernorm + tied head
constexpr long long kBytesPerElem = 2;
constexpr long long kEmbeddingElems = 50257LL * 768 + 1024LL * 768;
constexpr long long kBlockElems = 7087872;
constexpr long long kLayerNormElems = 2 * 768;

long long unitBytes(int unit) {
    if (unit == 0)
        return kEmbeddingElems * kBytesPerElem;
    return (unit == kUnits - 1 ? kLayerNormElems : kBlockElems) * kBytesPerElem;
}

// Compute times of one micro-batch on one rank at speed 1, in microseconds.
double forwardUs(int unit) {
    return unit == 0 ? 300 : unit == kUnits - 1 ? 3000 : 2000;
}
double backwardUs(int unit) {
    return unit == 0 ? 450 : unit == kUnits - 1 ? 6000 : 4000;
}
// Activations one unit keeps for backward, per micro-batch (bytes).
long long activationBytes(int unit) {
    return unit == 0 ? 6'300'000 : unit == kUnits - 1 ? 210'000'000 : 56'600'000;
}

// A ring collective of `bytes` at `busBytesPerS` plus 40 us of latency.
double collectiveUs(Collective c, long long bytes, int world, double busBytesPerS) {
    return 40 + 1e6 * bytes * ringTrafficFactor(c, world) / busBytesPerS;
}

// Bus bandwidths: a PCIe gen3 workstation, and NVLink.
constexpr double kPcieBus = 6e9;
constexpr double kNvlinkBus = 40e9;

class StepSim {
public:
    StepSim(int world, long long step, std::vector<double> speed, double busBytesPerS)
        : m_t(std::size_t(world), 0.0), m_commFree(std::size_t(world), 0.0),
          m_speed(std::move(speed)), m_bus(busBytesPerS) {
        m_out.step = step;
        m_out.world = world;
    }

    int world() const { return m_out.world; }

    // Every rank runs the same compute span; rank r takes us * speed[r], with a small
    // deterministic jitter so that no two ranks line up to the microsecond.
    void compute(SpanKind kind, double us, int unit = -1, int micro = -1) {
        ++m_ops;
        for (int r = 0; r < world(); ++r) {
            const double jitter = 1 + 0.03 * std::sin(1.7 * m_ops + 2.3 * r);
            TimelineSpan s;
            s.rank = r;
            s.kind = kind;
            s.unit = unit;
            s.micro = micro;
            s.start_us = m_t[std::size_t(r)];
            s.end_us = s.start_us + us * m_speed[std::size_t(r)] * jitter;
            m_t[std::size_t(r)] = s.end_us;
            m_out.spans.push_back(s);
        }
    }

    // Hands a collective to every rank's stream at its compute clock; returns its seq.
    int issue(Collective c, long long bytes, int unit = -1, int micro = -1,
              SpanKind kind = SpanKind::Collective) {
        const int seq = kind == SpanKind::Collective ? m_seq++ : -1;
        double lastJoin = 0;
        std::vector<double> starts(static_cast<std::size_t>(world()));
        for (int r = 0; r < world(); ++r) {
            starts[std::size_t(r)] = std::max(m_t[std::size_t(r)], m_commFree[std::size_t(r)]);
            lastJoin = std::max(lastJoin, starts[std::size_t(r)]);
        }
        const double end = lastJoin + collectiveUs(c, bytes, world(), m_bus);
        for (int r = 0; r < world(); ++r) {
            TimelineSpan s;
            s.rank = r;
            s.kind = kind;
            s.unit = unit;
            s.micro = micro;
            s.collective = c;
            s.bytes = bytes;
            s.seq = seq;
            s.issue_us = m_t[std::size_t(r)];
            s.start_us = starts[std::size_t(r)];
            s.end_us = end;
            m_commFree[std::size_t(r)] = end;
            m_out.spans.push_back(s);
        }
        m_end.resize(std::size_t(std::max(seq + 1, int(m_end.size()))));
        if (seq >= 0)
            m_end[std::size_t(seq)] = end;
        return seq;
    }

    // The compute thread blocks until collective `seq` has ended (a Wait span where it
    // had not yet).
    void wait(int seq) {
        const double end = m_end[std::size_t(seq)];
        const Collective c = collectiveOf(seq);
        for (int r = 0; r < world(); ++r) {
            double& t = m_t[std::size_t(r)];
            if (end - t > 1) {
                TimelineSpan s;
                s.rank = r;
                s.kind = SpanKind::Wait;
                s.collective = c;
                s.seq = seq;
                s.start_us = t;
                s.end_us = end;
                m_out.spans.push_back(s);
            }
            t = std::max(t, end);
        }
    }

    // A blocking collective: issue, then wait.
    void blocking(Collective c, long long bytes, int unit = -1, int micro = -1) {
        wait(issue(c, bytes, unit, micro));
    }

    // The per-step control all-reduce (stop/pause agreement): blocking, not numbered.
    void control() {
        issue(Collective::AllReduce, 16, -1, -1, SpanKind::Control);
        for (int r = 0; r < world(); ++r)
            m_t[std::size_t(r)] = std::max(m_t[std::size_t(r)], m_commFree[std::size_t(r)]);
    }

    // One sample of `category` on every rank at its compute clock.
    void memory(MemCategory category, long long bytes) {
        for (int r = 0; r < world(); ++r)
            m_out.memory.push_back({r, m_t[std::size_t(r)], category, bytes});
    }

    StepTimeline take() { return std::move(m_out); }

private:
    Collective collectiveOf(int seq) const {
        for (const auto& s : m_out.spans)
            if (s.kind == SpanKind::Collective && s.seq == seq)
                return s.collective;
        return Collective::AllReduce;
    }

    std::vector<double> m_t;        // compute clock per rank
    std::vector<double> m_commFree; // when each rank's stream is free
    std::vector<double> m_speed;    // compute time factor per rank
    std::vector<double> m_end;      // end of each collective, by seq
    double m_bus;                   // bus bandwidth, bytes/s
    int m_seq = 0;
    int m_ops = 0;
    StepTimeline m_out;
};

std::vector<double> evenSpeed(int world) {
    return std::vector<double>(std::size_t(world), 1.0);
}

// Activations, rising through forward and falling through backward, with two flat
// preallocated categories sampled at the same boundaries.
struct MemoryTrack {
    long long activations = 0;
    long long commBuffers = 0;
    long long workspace = 0;
    void sample(StepSim& sim) const {
        sim.memory(MemCategory::Activations, activations);
        if (commBuffers > 0)
            sim.memory(MemCategory::CommBuffers, commBuffers);
        if (workspace > 0)
            sim.memory(MemCategory::Workspace, workspace);
    }
};

} // namespace

StepTimeline stage3OverlapTimeline(int world, long long step) {
    StepSim sim(world, step, evenSpeed(world), kPcieBus);
    const double shard = 1.0 / world;
    MemoryTrack mem;
    // Gather slots (embedding + two blocks) and two fp32 reduce-scatter buckets.
    mem.commBuffers = unitBytes(0) + 2 * unitBytes(1) + 2 * (unitBytes(0) / 2 * 4);
    mem.workspace = (kEmbeddingElems + kBlockElems) * 4; // fp32 upcast of the bf16 params
    mem.sample(sim);
    sim.compute(SpanKind::Data, 250);
    // Forward: acquiring unit k waits for its gather and starts k+1's (the prefetch).
    int pending = sim.issue(Collective::AllGather, unitBytes(0), 0, 0);
    for (int u = 0; u < kUnits; ++u) {
        sim.wait(pending);
        if (u + 1 < kUnits)
            pending = sim.issue(Collective::AllGather, unitBytes(u + 1), u + 1, 0);
        sim.compute(SpanKind::Forward, forwardUs(u), u, 0);
        mem.activations += activationBytes(u);
        mem.sample(sim);
    }
    // Backward: units 7 and 6 are still in the two slots; acquiring unit k prefetches
    // k-1 (the embedding keeps its own slot). Each unit's reduce-scatter is issued
    // after its backward and runs under the next one.
    int gather = -1;
    int lastReduce = -1;
    for (int u = kUnits - 1; u >= 0; --u) {
        if (gather >= 0)
            sim.wait(gather);
        gather = u <= kUnits - 2 && u - 1 >= 1
                     ? sim.issue(Collective::AllGather, unitBytes(u - 1), u - 1, 0)
                     : -1;
        sim.compute(SpanKind::Backward, backwardUs(u), u, 0);
        mem.activations -= activationBytes(u);
        lastReduce = sim.issue(Collective::ReduceScatter, unitBytes(u), u, 0);
        mem.sample(sim);
    }
    sim.wait(lastReduce);
    sim.blocking(Collective::AllReduce, 8); // the squared grad norm
    sim.compute(SpanKind::Optimizer, 9000 * shard);
    sim.control();
    mem.sample(sim);
    return sim.take();
}

StepTimeline stage2NoOverlapTimeline(int world, int accumulation, bool recompute, long long step) {
    StepSim sim(world, step, evenSpeed(world), kPcieBus);
    const double shard = 1.0 / world;
    MemoryTrack mem;
    // One fp32 reduce-scatter bucket (embedding + a block), preallocated.
    mem.commBuffers = (kEmbeddingElems + kBlockElems) * 4;
    mem.sample(sim);
    for (int m = 0; m < accumulation; ++m) {
        sim.compute(SpanKind::Data, 250, -1, m);
        for (int u = 0; u < kUnits; ++u) {
            sim.compute(SpanKind::Forward, forwardUs(u), u, m);
            // With recompute only the block inputs are kept; the rest is rebuilt.
            mem.activations +=
                recompute && u > 0 && u < kUnits - 1 ? activationBytes(u) / 8 : activationBytes(u);
            mem.sample(sim);
        }
        for (int u = kUnits - 1; u >= 0; --u) {
            const bool block = u > 0 && u < kUnits - 1;
            if (recompute && block) {
                sim.compute(SpanKind::Recompute, forwardUs(u), u, m);
                mem.activations += activationBytes(u) - activationBytes(u) / 8;
                mem.sample(sim);
            }
            sim.compute(SpanKind::Backward, backwardUs(u), u, m);
            mem.activations -= activationBytes(u);
            mem.sample(sim);
            sim.blocking(Collective::ReduceScatter, unitBytes(u), u, m);
        }
    }
    sim.blocking(Collective::AllReduce, 8);
    sim.compute(SpanKind::Optimizer, 9000 * shard);
    // The parameter sync: every unit's all-gather in flight, then waited for.
    int last = -1;
    for (int u = 0; u < kUnits; ++u)
        last = sim.issue(Collective::AllGather, unitBytes(u), u);
    sim.wait(last);
    sim.control();
    mem.sample(sim);
    return sim.take();
}

StepTimeline slowRankTimeline(int world, int slowRank, long long step) {
    std::vector<double> speed = evenSpeed(world);
    if (slowRank >= 0 && slowRank < world)
        speed[std::size_t(slowRank)] = 1.4;
    StepSim sim(world, step, speed, kNvlinkBus);
    const double shard = 1.0 / world;
    MemoryTrack mem;
    mem.workspace = (kEmbeddingElems + kBlockElems) * 4; // the fp32 grad staging slot
    mem.sample(sim);
    sim.compute(SpanKind::Data, 250, -1, 0);
    for (int u = 0; u < kUnits; ++u) {
        sim.compute(SpanKind::Forward, forwardUs(u), u, 0);
        mem.activations += activationBytes(u);
        mem.sample(sim);
    }
    // Buckets of two units, all-reduced as soon as backward has filled them.
    int last = -1;
    long long bucket = 0;
    for (int u = kUnits - 1; u >= 0; --u) {
        sim.compute(SpanKind::Backward, backwardUs(u), u, 0);
        mem.activations -= activationBytes(u);
        mem.sample(sim);
        bucket += unitBytes(u);
        if (u % 2 == 0) {
            last = sim.issue(Collective::AllReduce, bucket, u, 0);
            bucket = 0;
        }
    }
    sim.wait(last);
    sim.blocking(Collective::AllReduce, 8);
    sim.compute(SpanKind::Optimizer, 9000 * shard);
    for (int u = 0; u < kUnits; ++u)
        last = sim.issue(Collective::AllGather, unitBytes(u), u);
    sim.wait(last);
    sim.control();
    mem.sample(sim);
    return sim.take();
}

} // namespace zerolab
