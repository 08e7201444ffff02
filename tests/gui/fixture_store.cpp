// Fixture runs: memory per rank from the planner for the micro model (plus a
// little per-rank jitter), times that scale with the stage's communication, and a
// loss that falls like a real run on the synthetic data.
#include "fixture_store.h"

#include "runtime/config/config.h"
#include "runtime/planner/planner.h"
#include "storage/run_writer.h"

#include <cmath>
#include <random>

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

nlohmann::json fixtureConfig(const FixtureRun& r) {
    return {{"train_micro_batch_size_per_gpu", 8},
            {"gradient_accumulation_steps", 1},
            {"optimizer", {{"type", "AdamW"}, {"params", {{"lr", 6e-4}, {"weight_decay", 0.1}}}}},
            {"bf16", {{"enabled", r.bf16}}},
            {"zero_optimization", {{"stage", r.stage}, {"overlap_comm", r.stage >= 2}}},
            {"model", {{"preset", "micro"}}},
            {"run", {{"steps", r.steps}, {"device", r.gpu ? "cuda" : "cpu"}}}};
}

} // namespace

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
        const nlohmann::json cfg = fixtureConfig(r);
        const ModelShape shape = *findModelPreset("micro");
        PlanInput in;
        in.shape = shape;
        in.world = r.world;
        in.stage = r.stage;
        in.precision = r.bf16 ? Precision::Bf16Mixed : Precision::Fp32;
        in.micro_batch = 8;
        in.seq_len = shape.seq_len;
        const Plan plan = zerolab::plan(in);
        const MemBreakdown planned = plan.stages[r.stage].per_rank;

        RunInfo info;
        info.name = r.name;
        info.host = "fixture-host";
        info.command_line =
            "mpirun -np " + std::to_string(r.world) + " zerolab-train --config fixture.json";
        info.pid = 0;
        info.world = r.world;
        info.stage = r.stage;
        info.precision = r.bf16 ? "bf16" : "fp32";
        info.params = plan.psi;
        info.config_json = cfg.dump();
        info.tags = r.tags;
        const std::int64_t id = writer.createRun(info);
        ids.push_back(id);
        writer.beginSegment(Segment{0, 0, r.world, r.stage, 1, 8, "start"});

        const double tokensPerStep = 8.0 * shape.seq_len * r.world;
        const double commScale = r.stage == 3 ? 1.5 : 1.0;
        double wall = 0;
        for (int step = 0; step < r.steps; ++step) {
            StepRecord s;
            s.step = step;
            s.fwd_ms = 38 + 2 * noise(rng);
            s.bwd_ms = 74 + 3 * noise(rng);
            s.optim_ms = (r.stage == 0 ? 9.0 : 9.0 / r.world * 2) + 0.3 * noise(rng);
            const double comm = commScale * (6 + 0.4 * r.world) + 0.5 * noise(rng);
            s.comm.allreduce_ms = r.stage <= 1 ? comm : 0;
            s.comm.reduce_scatter_ms = r.stage >= 2 ? comm * 0.5 : 0;
            s.comm.allgather_ms = r.stage >= 1 ? comm * (r.stage == 3 ? 1.0 : 0.5) : 0;
            s.comm.exposed_ms = comm * (r.stage >= 2 ? 0.35 : 0.8);
            s.step_ms = s.fwd_ms + s.bwd_ms + s.optim_ms + s.comm.exposed_ms;
            wall += s.step_ms / 1000.0;
            s.wall_time_s = wall;
            s.tokens = std::int64_t(tokensPerStep * (step + 1));
            s.tokens_per_s = tokensPerStep / (s.step_ms / 1000.0);
            s.loss =
                1.45 + 4.1 * std::exp(-step / 60.0) + 0.06 * noise(rng) * std::exp(-step / 400.0);
            s.lr = 6e-4 * std::min(1.0, (step + 1) / 20.0);
            s.grad_norm = 0.6 + 2.5 * std::exp(-step / 40.0) + 0.05 * std::fabs(noise(rng));
            s.mfu = 0.55 + 0.02 * noise(rng);
            s.comm_bytes = std::int64_t(2.0 * double(plan.psi) * (r.bf16 ? 2 : 4) * commScale);
            s.busbw_gbps =
                double(s.comm_bytes) / (comm / 1000.0) / 1e9 * 2.0 * (r.world - 1) / r.world;
            for (int rank = 0; rank < r.world; ++rank) {
                RankRecord rr;
                rr.rank = rank;
                rr.host = "fixture-host";
                rr.mem = planned;
                // Padding leaves the last rank's shard a little short.
                if (rank == r.world - 1 && r.stage > 0)
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
            writer.appendStep(s);
        }
        writer.finish(RunStatus::Finished, "fixture");
    }
    return ids;
}

} // namespace zerolab
