// Fixture runs: memory per rank from the planner for the micro model (plus a
// little per-rank jitter), times that scale with the stage's communication, and a
// loss that falls like a real run on the synthetic data.
#include "fixture_store.h"

#include "runtime/config/config.h"
#include "runtime/planner/planner.h"
#include "storage/run_writer.h"

#include <cmath>
#include <random>
#include <stdexcept>

namespace zerolab {

std::vector<FixtureRun> defaultFixtureRuns() {
    return {
        {"baseline-ddp", 0, 8, 300, false, {"baseline"}},
        {"zero1-n8", 1, 8, 300, false, {"zero1", "sweep"}},
        {"zero2-n8", 2, 8, 300, false, {"sweep"}},
        {"zero3-n8", 3, 8, 300, false, {"sweep"}},
        {"zero1-n2-bf16", 1, 2, 200, true, {"bf16"}},
    };
}

namespace {

constexpr std::size_t kStepsPerTransaction = 4096;

nlohmann::json fixtureConfig(const FixtureRun& r, int stage, int gradAccum) {
    return {{"train_micro_batch_size_per_gpu", 8},
            {"gradient_accumulation_steps", gradAccum},
            {"optimizer", {{"type", "AdamW"}, {"params", {{"lr", 6e-4}, {"weight_decay", 0.1}}}}},
            {"bf16", {{"enabled", r.bf16}}},
            {"zero_optimization", {{"stage", stage}, {"overlap_comm", stage >= 2}}},
            {"model", {{"preset", "micro"}}},
            {"run", {{"steps", r.steps}, {"device", r.gpu ? "cuda" : "cpu"}}}};
}

// What the planner predicts for the fixture's own config, through the one path every
// view uses (predictRun), so that the fixture's ledger and outlines agree with the GUI.
StagePlan fixturePrediction(const FixtureRun& r, int stage, int world, int gradAccum) {
    const ConfigResult c = parseConfig(fixtureConfig(r, stage, gradAccum), world, "fixture");
    if (!c.config)
        throw std::logic_error("fixture config for '" + r.name + "' does not parse");
    return predictRun(*c.config);
}

} // namespace

FixtureRun restartedFixtureRun() {
    FixtureRun r{"zero1-n2-restarted", 1, 2, 200, false, {"restart"}};
    r.restarts = {{100, 3, 3, 2}};
    return r;
}

FixtureRun gpuFixtureRun() {
    FixtureRun r{"zero3-n4-cuda", 3, 4, 200, true, {"gpu"}};
    r.gpu = true;
    return r;
}

std::vector<std::int64_t> writeFixtureStore(const std::string& path,
                                            const std::vector<FixtureRun>& runs) {
    std::vector<std::int64_t> ids;
    std::mt19937 rng(42);
    std::normal_distribution<double> noise(0.0, 1.0);
    for (const FixtureRun& r : runs) {
        RunWriter writer(RunStore::open(path));
        const ModelShape shape = *findModelPreset("micro");
        const std::int64_t psi = paramCount(shape);
        StagePlan planned = fixturePrediction(r, r.stage, r.world, 1);

        RunInfo info;
        info.name = r.name;
        info.host = "fixture-host";
        info.command_line =
            "mpirun -np " + std::to_string(r.world) + " zerolab-train --config fixture.json";
        info.pid = 0;
        info.world = r.world;
        info.stage = r.stage;
        info.precision = r.bf16 ? "bf16" : "fp32";
        info.params = psi;
        info.config_json = fixtureConfig(r, r.stage, 1).dump();
        info.tags = r.tags;
        const std::int64_t id = writer.createRun(info);
        ids.push_back(id);
        int stage = r.stage;
        int world = r.world;
        auto beginSegment = [&](std::int64_t start, int gradAccum) {
            Segment seg;
            seg.start_step = start;
            seg.world = world;
            seg.stage = stage;
            seg.grad_accum = gradAccum;
            seg.micro_batch = 8;
            seg.reason = start == 0 ? "start" : "resume";
            if (!r.restarts.empty()) {
                seg.config_json = fixtureConfig(r, stage, gradAccum).dump();
                seg.predicted = planned.per_rank;
                seg.predicted_traffic_bytes = planned.traffic.total();
            }
            writer.beginSegment(seg);
        };
        beginSegment(0, 1);
        auto restart = r.restarts.begin();

        double wall = 0;
        std::vector<StepRecord> batch;
        auto flush = [&] {
            writer.appendSteps(batch);
            batch.clear();
        };
        for (int step = 0; step < r.steps; ++step) {
            if (restart != r.restarts.end() && restart->step == step) {
                flush();
                stage = restart->stage;
                world = restart->world;
                planned = fixturePrediction(r, stage, world, restart->gradAccum);
                beginSegment(step, restart->gradAccum);
                ++restart;
            }
            const double tokensPerStep = 8.0 * shape.seq_len * world;
            const double commScale = stage == 3 ? 1.5 : 1.0;
            StepRecord s;
            s.step = step;
            s.fwd_ms = 38 + 2 * noise(rng);
            s.bwd_ms = 74 + 3 * noise(rng);
            s.optim_ms = (stage == 0 ? 9.0 : 9.0 / world * 2) + 0.3 * noise(rng);
            const double comm = commScale * (6 + 0.4 * world) + 0.5 * noise(rng);
            s.comm.allreduce_ms = stage <= 1 ? comm : 0;
            s.comm.reduce_scatter_ms = stage >= 2 ? comm * 0.5 : 0;
            s.comm.allgather_ms = stage >= 1 ? comm * (stage == 3 ? 1.0 : 0.5) : 0;
            s.comm.exposed_ms = comm * (stage >= 2 ? 0.35 : 0.8);
            s.step_ms = s.fwd_ms + s.bwd_ms + s.optim_ms + s.comm.exposed_ms;
            wall += s.step_ms / 1000.0;
            s.wall_time_s = wall;
            s.tokens = std::int64_t(tokensPerStep * (step + 1));
            s.tokens_per_s = tokensPerStep / (s.step_ms / 1000.0);
            s.loss =
                1.45 + 4.1 * std::exp(-step / 60.0) + 0.06 * noise(rng) * std::exp(-step / 400.0);
            for (const auto& [at, loss] : r.lossAt)
                if (at == step)
                    s.loss = loss;
            s.lr = 6e-4 * std::min(1.0, (step + 1) / 20.0);
            s.grad_norm = 0.6 + 2.5 * std::exp(-step / 40.0) + 0.05 * std::fabs(noise(rng));
            s.mfu = 0.55 + 0.02 * noise(rng);
            s.comm_bytes = std::int64_t(2.0 * double(psi) * (r.bf16 ? 2 : 4) * commScale);
            s.busbw_gbps = double(s.comm_bytes) / (comm / 1000.0) / 1e9 * 2.0 * (world - 1) / world;
            s.traffic = planned.traffic; // a fixture run moves what the planner forecasts
            for (int rank = 0; rank < world; ++rank) {
                RankRecord rr;
                rr.rank = rank;
                rr.host = "fixture-host";
                rr.mem = planned.per_rank;
                // Padding leaves the last rank's shard a little short.
                if (rank == world - 1 && stage > 0)
                    rr.mem[MemCategory::OptimM] -= rr.mem[MemCategory::OptimM] / 50;
                const long long total = rr.mem.total();
                rr.rss = total + 180'000'000 + std::int64_t(2e6 * noise(rng));
                rr.peak = rr.rss + total / 10;
                if (r.gpu) { // the CUDA context and cuBLAS workspace on top of the ledger
                    rr.device_used = total + 520'000'000 + std::int64_t(1e6 * noise(rng));
                    rr.rss = 900'000'000;
                    rr.peak = rr.device_used + total / 20;
                }
                rr.comm = s.comm;
                rr.comm.allreduce_ms *= 1 + 0.04 * rank;
                rr.comm.reduce_scatter_ms *= 1 + 0.04 * rank;
                rr.comm.allgather_ms *= 1 + 0.04 * rank;
                s.ranks.push_back(rr);
            }
            batch.push_back(std::move(s));
            if (batch.size() == kStepsPerTransaction)
                flush();
        }
        flush();
        writer.finish(RunStatus::Finished, "fixture");
    }
    return ids;
}

MachineProfile fixtureMachineProfile() {
    MachineProfile p;
    p.source = "calibrated";
    p.name = "testbox";
    p.date = "2026-11-30T12:00:00Z";
    p.cores = 64;
    p.threads_per_rank = 1;
    for (double& r : p.rates)
        r = 2e9;
    p.intra_link = LinkSpec{"test-link", "a test link", 1e9, 1e-5};
    p.peak_flops = 4e9;
    return p;
}

} // namespace zerolab
