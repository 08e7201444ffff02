// A cluster a tuner can describe (issue 37, item 4): the rate between hosts with its unit
// and scope (parseLinkRate, interHostLink), NICs per node, GPUs per host, the presets'
// meaning printed back, bad input refused naming the flag and value; and --time without
// --micro trying every micro-batch that fits, choosing by tokens/s.
#include "tests/support/process.h"

#include "runtime/planner/bandwidth_units.h"
#include "runtime/planner/cluster_presets.h"
#include "runtime/planner/planner.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace zerolab {
namespace {

std::string linkError(std::string_view network, std::string_view rate, int gpus,
                      std::optional<int> nics) {
    try {
        interHostLink(network, rate, gpus, nics);
    } catch (const PlanError& e) {
        return e.what();
    }
    return "";
}

test::ProcessResult plan(const std::string& args) {
    return test::runTool("zerolab-plan", args);
}

// Each stage's forecast step time of `args` (which must ask for --time --json).
std::vector<double> stepTimes(const std::string& args) {
    const test::ProcessResult r = plan(args);
    EXPECT_EQ(r.exit_code, 0) << args << ": " << r.err;
    std::vector<double> out;
    if (r.exit_code != 0)
        return out;
    const nlohmann::json doc = nlohmann::json::parse(r.out); // outlives the loop below
    for (const auto& s : doc["time"]["stages"])
        out.push_back(s["step_s"].get<double>());
    return out;
}

TEST(PlanCluster, ALinkRateNamesItsScope) {
    LinkRate r = parseLinkRate("400Gb/s/node", "--inter-link");
    EXPECT_DOUBLE_EQ(r.bytes_per_s, 50e9);
    EXPECT_EQ(r.per, LinkScope::Node);
    r = parseLinkRate("50GB/s/gpu", "--inter-link");
    EXPECT_DOUBLE_EQ(r.bytes_per_s, 50e9);
    EXPECT_EQ(r.per, LinkScope::Gpu);
    r = parseLinkRate("1600Gbit/s/node", "--inter-link");
    EXPECT_DOUBLE_EQ(r.bytes_per_s, 200e9);
    EXPECT_EQ(r.per, LinkScope::Node);
    r = parseLinkRate("400Gb/s", "--inter-link"); // a port's rate, as sold
    EXPECT_DOUBLE_EQ(r.bytes_per_s, 50e9);
    EXPECT_EQ(r.per, LinkScope::Nic);
    r = parseLinkRate("200gbit/nic", "--inter-link");
    EXPECT_DOUBLE_EQ(r.bytes_per_s, 25e9);
    EXPECT_EQ(r.per, LinkScope::Nic);
}

// Per node is shared by the node's GPUs; per NIC is times the NICs (one per GPU unless
// told); the ring reads the rate per GPU.
TEST(PlanCluster, PerNodePerGpuAndPerNicAgreeWhenTheyShouldAndSayItBack) {
    InterHostLink l = interHostLink("", "400Gb/s/node", 8, std::nullopt);
    EXPECT_DOUBLE_EQ(l.spec.bytes_per_s, 50e9 / 8);
    EXPECT_DOUBLE_EQ(l.per_node_bytes_per_s, 50e9);
    EXPECT_NE(l.description.find(
                  "inter-host link: 400 Gb/s per node = 50 Gb/s per GPU with 8 GPUs a node"),
              std::string::npos)
        << l.description;
    EXPECT_NE(l.description.find("NCCL's latency (8.40 us a collective, 14.0 us a ring step "
                                 "between hosts) and bus bandwidth (90.0% of the NICs' rate)"),
              std::string::npos)
        << l.description;
    EXPECT_DOUBLE_EQ(interHostLink("", "50Gb/s/gpu", 8, std::nullopt).spec.bytes_per_s, 50e9 / 8);
    EXPECT_DOUBLE_EQ(interHostLink("", "100Gb/s", 8, 4).spec.bytes_per_s, 50e9 / 8);
    EXPECT_DOUBLE_EQ(interHostLink("", "50Gb/s", 8, std::nullopt).spec.bytes_per_s, 50e9 / 8);
    // The preset means one 400 Gb/s port per GPU: 3.2 Tb/s a node of 8.
    l = interHostLink("ib-ndr", "", 8, std::nullopt);
    EXPECT_DOUBLE_EQ(l.spec.bytes_per_s, 50e9);
    EXPECT_DOUBLE_EQ(l.spec.latency_s, 5e-6);
    EXPECT_NE(l.description.find("ib-ndr (InfiniBand NDR (400 Gb/s)), 400 Gb/s per NIC x 8 NICs "
                                 "a node (one per GPU; --nics-per-node to change) = 3.2 Tb/s per "
                                 "node = 400 Gb/s per GPU with 8 GPUs a node"),
              std::string::npos)
        << l.description;
    // Two NDR ports for 8 GPUs: a quarter of the rate per GPU.
    EXPECT_DOUBLE_EQ(interHostLink("ib-ndr", "", 8, 2).spec.bytes_per_s, 50e9 / 4);
    // A preset with a rate: the rate, the preset's latency.
    l = interHostLink("eth-100g", "1600Gb/s/node", 8, std::nullopt);
    EXPECT_DOUBLE_EQ(l.spec.bytes_per_s, 25e9);
    EXPECT_DOUBLE_EQ(l.spec.latency_s, 20e-6);
}

TEST(PlanCluster, BadLinksAreRefusedNamingTheFlagAndValue) {
    EXPECT_NE(linkError("", "400", 8, std::nullopt).find("--inter-link '400': a bare number"),
              std::string::npos);
    EXPECT_NE(linkError("", "400furlongs/node", 8, std::nullopt).find("unknown unit 'furlongs'"),
              std::string::npos);
    const std::string scope = linkError("", "400Gb/s/rack", 8, std::nullopt);
    EXPECT_NE(scope.find("--inter-link '400Gb/s/rack': unknown scope '/rack'"), std::string::npos)
        << scope;
    EXPECT_NE(linkError("", "0Gb/s/node", 8, std::nullopt).find("above zero"), std::string::npos);
    EXPECT_NE(linkError("", "-5GB/s/gpu", 8, std::nullopt).find("above zero"), std::string::npos);
    const std::string nics = linkError("ib-ndr", "", 8, 3);
    EXPECT_NE(nics.find("--nics-per-node 3 does not divide the 8 GPUs a host"), std::string::npos)
        << nics;
    EXPECT_NE(linkError("ib-ndr", "", 8, 0).find("--nics-per-node 0: a host needs at least one"),
              std::string::npos);
    EXPECT_NE(linkError("ib-ndr", "", 8, -2).find("--nics-per-node -2"), std::string::npos);
    EXPECT_NE(linkError("ib-xdr", "", 8, std::nullopt).find("--network: unknown link 'ib-xdr'"),
              std::string::npos);
    EXPECT_NE(linkError("", "", 8, std::nullopt).find("--inter-link (e.g. 400Gb/s/node)"),
              std::string::npos);
}

// Through zerolab-plan: the rate printed back in the report, the forecast the same for the
// same rate per GPU however it is written, and slower for less.
TEST(PlanCluster, CliReportsTheLinkAndForecastsByTheRatePerGpu) {
    const std::string base = "--params 1.3e9 --world 16 --hosts 2 --micro 4 --device a100-80 "
                             "--time ";
    const test::ProcessResult r = plan(base + "--inter-link 400Gb/s/node");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("inter-host link: 400 Gb/s per node = 50 Gb/s per GPU with 8 GPUs a "
                         "node"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("between hosts 400 Gb/s per node, 50 Gb/s per GPU"), std::string::npos)
        << r.out;
    const std::string json = base + "--json --inter-link ";
    const std::vector<double> node = stepTimes(json + "400Gb/s/node");
    ASSERT_EQ(node.size(), 4u);
    EXPECT_EQ(stepTimes(json + "50Gb/s/gpu"), node);
    EXPECT_EQ(stepTimes(json + "100Gb/s --nics-per-node 4"), node);
    // The preset at one NDR port per GPU is 3.2 Tb/s a node (same latency, 5 us).
    EXPECT_EQ(stepTimes(base + "--json --network ib-ndr"), stepTimes(json + "3200Gb/s/node"));
    const std::vector<double> fast = stepTimes(json + "3200Gb/s/node");
    for (std::size_t s = 1; s < 4; ++s)
        EXPECT_LT(fast[s], node[s]) << "stage " << s;
    // --gpus-per-host with --hosts gives the world.
    EXPECT_EQ(stepTimes("--params 1.3e9 --hosts 2 --gpus-per-host 8 --micro 4 --device a100-80 "
                        "--time --json --inter-link 400Gb/s/node"),
              node);
}

TEST(PlanCluster, CliRefusesWhatDoesNotDescribeACluster) {
    const std::string base = "--params 1.3e9 --world 16 --micro 4 --device a100-80 --time ";
    struct Case {
        std::string args, error;
    };
    const std::vector<Case> cases = {
        {"--hosts 2 --inter-link 400", "--inter-link '400': a bare number"},
        {"--hosts 2 --inter-link 400Gb/s/rack", "unknown scope '/rack'"},
        {"--hosts 2 --inter-link 400furlongs/node", "unknown unit 'furlongs'"},
        {"--hosts 2 --inter-link 0Gb/s/node", "above zero"},
        {"--hosts 2 --inter-link=-5GB/s/gpu", "above zero"},
        {"--hosts 2 --network ib-ndr --nics-per-node 3",
         "--nics-per-node 3 does not divide the 8 GPUs a host"},
        {"--hosts 2 --network ib-ndr --nics-per-node 0", "--nics-per-node 0"},
        {"--inter-link 400Gb/s/node", "--inter-link: one host (--hosts 1)"},
        {"--hosts 2 --gpus-per-host 4", "--world 16 is not --hosts 2 x --gpus-per-host 4 = 8"},
        {"--gpus-per-host 0", "--gpus-per-host 0: a host has at least one GPU"},
        {"--gpus-per-host 3", "--gpus-per-host 3 does not divide --world 16"},
        {"--hosts 2", "say the link between them with --network"},
    };
    for (const Case& c : cases) {
        const test::ProcessResult r = plan(base + c.args);
        EXPECT_EQ(r.exit_code, 2) << c.args << ": " << r.out;
        EXPECT_NE(r.err.find(c.error), std::string::npos) << c.args << ": " << r.err;
    }
    const test::ProcessResult no_time =
        plan("--params 1.3e9 --world 16 --hosts 2 --inter-link 400Gb/s/node");
    EXPECT_EQ(no_time.exit_code, 2);
    EXPECT_NE(no_time.err.find("needs --time"), std::string::npos) << no_time.err;
}

// A shape and no --micro: every micro-batch that fits is forecast and the most tokens/s is
// chosen (before, micro-batch 1 alone, called "fastest").
TEST(PlanCluster, TimeWithoutMicroTriesEveryMicroBatchThatFits) {
    const std::string shape = "--layers 12 --hidden 768 --heads 12 --vocab 50257 --seq 1024 "
                              "--world 8 --device a100-80 --time";
    const test::ProcessResult r = plan(shape + " --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("--time tries every micro-batch that fits"), std::string::npos) << r.err;
    const auto time = nlohmann::json::parse(r.out)["time"];
    ASSERT_FALSE(time["fastest"].is_null());
    const int stage = time["fastest"]["stage"].get<int>();
    const auto& best = time["stages"][stage];
    const int micro = best["micro_batch"].get<int>();
    const int largest = best["micro_batches_tried"][1].get<int>();
    EXPECT_GT(largest, 1);
    EXPECT_GE(micro, 1);
    EXPECT_LE(micro, largest);
    // Every micro-batch tried fits, the next one does not, and none beats the chosen one.
    const auto at = [&](int b) {
        const test::ProcessResult one = plan(shape + " --json --micro " + std::to_string(b));
        EXPECT_EQ(one.exit_code, 0) << one.err;
        return nlohmann::json::parse(one.out)["time"]["stages"][stage];
    };
    for (int b : {1, largest}) {
        const auto s = at(b);
        EXPECT_TRUE(s["fits"].get<bool>()) << b;
        EXPECT_LE(s["tokens_per_s"].get<double>(), best["tokens_per_s"].get<double>()) << b;
    }
    EXPECT_FALSE(at(largest + 1)["fits"].get<bool>());
    EXPECT_DOUBLE_EQ(at(micro)["tokens_per_s"].get<double>(), best["tokens_per_s"].get<double>());
    const test::ProcessResult text = plan(shape);
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_NE(text.out.find("Micro-batches tried (every one that fits, up to 256): stage 0: 1-"),
              std::string::npos)
        << text.out;
    // A bare size (the assumed GPT-3 shape) is searched the same way.
    const test::ProcessResult bare = plan("--params 1.3e9 --world 8 --device a100-80 --time");
    ASSERT_EQ(bare.exit_code, 0) << bare.err;
    EXPECT_NE(bare.out.find("Micro-batches tried (every one that fits, up to 256): stage 0: 1"),
              std::string::npos)
        << bare.out;
    // A given --micro is the only one forecast, and no search is reported.
    const test::ProcessResult given = plan(shape + " --micro 2");
    ASSERT_EQ(given.exit_code, 0) << given.err;
    EXPECT_EQ(given.out.find("Micro-batches tried"), std::string::npos) << given.out;
}

} // namespace
} // namespace zerolab
