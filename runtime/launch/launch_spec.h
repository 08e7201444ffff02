// LaunchSpec: how a training job is started (mpirun or srun, ranks, hosts, extra
// arguments) turned into an argument vector and the environment it needs. No shell
// is ever involved: the GUI hands the vector to QProcess, tests to execvp.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace zerolab {

// Thrown for a spec that cannot be launched (no ranks, unbalanced quotes in the
// extra arguments); the message names the field.
class LaunchError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

enum class LauncherKind { Mpirun, Srun };

struct LaunchSpec {
    LauncherKind kind = LauncherKind::Mpirun;
    std::string launcher = "mpirun"; // path or name of mpirun / srun
    int np = 1;
    std::string hosts;                   // "a:4,b:4" (mpirun --host; srun --nodelist); empty: local
    std::string hostfile;                // mpirun --hostfile; ignored when hosts is set
    std::vector<std::string> extra_args; // before the program, after ours
    bool oversubscribe = true;           // mpirun only: N may exceed the cores
    bool bind_none = true;  // mpirun only: --bind-to none (a laptop's cores are shared)
    bool tag_output = true; // mpirun --tag-output: "[job,rank]<stderr>:" on every line
    std::string program;    // zerolab-train
    std::vector<std::string> program_args;
};

// The full argv, launcher first. Throws LaunchError when np < 1 or program is empty.
std::vector<std::string> launchArgv(const LaunchSpec& spec);

// Variables the launcher needs on top of the caller's environment: as root, the two
// Open MPI overrides; always the shared-memory setting that works in containers.
std::vector<std::pair<std::string, std::string>> launchEnvironment(const LaunchSpec& spec,
                                                                   bool as_root);

// Splits a user's "extra arguments" text like a POSIX shell would split words
// (whitespace, single and double quotes, backslash), with no expansion of any kind.
// Throws LaunchError naming the unbalanced quote.
std::vector<std::string> splitArguments(const std::string& text);

} // namespace zerolab
