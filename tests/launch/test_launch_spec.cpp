// LaunchSpec -> argv: mpirun and srun forms, hosts vs hostfile, extra arguments kept
// as words (never a shell string), the root environment, and the word splitter.
#include "runtime/launch/launch_spec.h"

#include <gtest/gtest.h>

namespace zerolab {
namespace {

using Argv = std::vector<std::string>;

LaunchSpec trainSpec(int np) {
    LaunchSpec s;
    s.np = np;
    s.program = "/opt/zl/zerolab-train";
    s.program_args = {"--config", "/tmp/a b.json", "--db", "/tmp/runs.db"};
    return s;
}

TEST(LaunchSpec, MpirunDefaultsForALaptop) {
    EXPECT_EQ(launchArgv(trainSpec(2)),
              (Argv{"mpirun", "-np", "2", "--oversubscribe", "--bind-to", "none", "--tag-output",
                    "/opt/zl/zerolab-train", "--config", "/tmp/a b.json", "--db", "/tmp/runs.db"}));
}

TEST(LaunchSpec, HostsWinOverHostfileAndExtraArgsComeBeforeTheProgram) {
    LaunchSpec s = trainSpec(4);
    s.oversubscribe = false;
    s.bind_none = false;
    s.tag_output = false;
    s.hosts = "a:2,b:2";
    s.hostfile = "/etc/hosts.mpi";
    s.extra_args = {"--mca", "btl", "tcp,self"};
    EXPECT_EQ(launchArgv(s),
              (Argv{"mpirun", "-np", "4", "--host", "a:2,b:2", "--mca", "btl", "tcp,self",
                    "/opt/zl/zerolab-train", "--config", "/tmp/a b.json", "--db", "/tmp/runs.db"}));
    s.hosts.clear();
    const Argv argv = launchArgv(s);
    EXPECT_EQ(argv[3], "--hostfile");
    EXPECT_EQ(argv[4], "/etc/hosts.mpi");
}

TEST(LaunchSpec, Srun) {
    LaunchSpec s = trainSpec(3);
    s.kind = LauncherKind::Srun;
    s.launcher = "/usr/bin/srun";
    s.hosts = "n[1-3]";
    const Argv argv = launchArgv(s);
    EXPECT_EQ(Argv(argv.begin(), argv.begin() + 6),
              (Argv{"/usr/bin/srun", "--ntasks", "3", "--label", "--nodelist", "n[1-3]"}));
    EXPECT_TRUE(launchEnvironment(s, true).empty());
}

TEST(LaunchSpec, RejectsNoRanksOrNoProgram) {
    EXPECT_THROW(launchArgv(trainSpec(0)), LaunchError);
    LaunchSpec s = trainSpec(1);
    s.program.clear();
    EXPECT_THROW(launchArgv(s), LaunchError);
}

TEST(LaunchSpec, RootEnvironmentOnlyAsRoot) {
    const auto root = launchEnvironment(trainSpec(2), true);
    const auto user = launchEnvironment(trainSpec(2), false);
    EXPECT_EQ(root.size(), user.size() + 2);
    EXPECT_EQ(root.front(), (std::pair<std::string, std::string>{"OMPI_ALLOW_RUN_AS_ROOT", "1"}));
    for (const auto& [k, v] : user)
        EXPECT_EQ(k.find("ALLOW_RUN_AS_ROOT"), std::string::npos) << k;
}

TEST(SplitArguments, QuotesAndEscapesWithoutExpansion) {
    EXPECT_EQ(splitArguments("  --mca btl  tcp,self "), (Argv{"--mca", "btl", "tcp,self"}));
    EXPECT_EQ(splitArguments(R"(-x 'A=1 2' "B=\"q\"" C\ D $HOME)"),
              (Argv{"-x", "A=1 2", R"(B="q")", "C D", "$HOME"}));
    EXPECT_EQ(splitArguments("''"), (Argv{""}));
    EXPECT_TRUE(splitArguments("").empty());
    EXPECT_THROW(splitArguments("--x 'open"), LaunchError);
}

} // namespace
} // namespace zerolab
