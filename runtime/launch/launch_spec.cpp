// LaunchSpec -> argv and environment; the word splitter for extra arguments.
#include "runtime/launch/launch_spec.h"

namespace zerolab {

std::vector<std::string> launchArgv(const LaunchSpec& spec) {
    if (spec.np < 1)
        throw LaunchError("launch: np must be at least 1, got " + std::to_string(spec.np));
    if (spec.program.empty())
        throw LaunchError("launch: no program to run");
    if (spec.launcher.empty())
        throw LaunchError("launch: no launcher (mpirun or srun path)");
    std::vector<std::string> argv{spec.launcher};
    const std::string np = std::to_string(spec.np);
    if (spec.kind == LauncherKind::Srun) {
        argv.insert(argv.end(), {"--ntasks", np, "--label"});
        if (!spec.hosts.empty())
            argv.insert(argv.end(), {"--nodelist", spec.hosts});
    } else {
        argv.insert(argv.end(), {"-np", np});
        if (spec.oversubscribe)
            argv.push_back("--oversubscribe");
        if (spec.bind_none)
            argv.insert(argv.end(), {"--bind-to", "none"});
        if (spec.tag_output)
            argv.push_back("--tag-output");
        if (!spec.hosts.empty())
            argv.insert(argv.end(), {"--host", spec.hosts});
        else if (!spec.hostfile.empty())
            argv.insert(argv.end(), {"--hostfile", spec.hostfile});
    }
    argv.insert(argv.end(), spec.extra_args.begin(), spec.extra_args.end());
    argv.push_back(spec.program);
    argv.insert(argv.end(), spec.program_args.begin(), spec.program_args.end());
    return argv;
}

std::vector<std::pair<std::string, std::string>> launchEnvironment(const LaunchSpec& spec,
                                                                   bool as_root) {
    std::vector<std::pair<std::string, std::string>> env;
    if (spec.kind != LauncherKind::Mpirun)
        return env;
    if (as_root) {
        env.emplace_back("OMPI_ALLOW_RUN_AS_ROOT", "1");
        env.emplace_back("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    }
    // CMA (process_vm_readv) is blocked in most containers; copy-in/copy-out always works.
    env.emplace_back("OMPI_MCA_btl_vader_single_copy_mechanism", "none");
    return env;
}

std::vector<std::string> splitArguments(const std::string& text) {
    std::vector<std::string> words;
    std::string word;
    bool inWord = false;
    char quote = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quote == '\'') {
            if (c == '\'')
                quote = 0;
            else
                word += c;
        } else if (quote == '"') {
            if (c == '"')
                quote = 0;
            else if (c == '\\' && i + 1 < text.size() &&
                     (text[i + 1] == '"' || text[i + 1] == '\\'))
                word += text[++i];
            else
                word += c;
        } else if (c == ' ' || c == '\t' || c == '\n') {
            if (inWord)
                words.push_back(std::move(word));
            word.clear();
            inWord = false;
        } else {
            inWord = true;
            if (c == '\'' || c == '"')
                quote = c;
            else if (c == '\\' && i + 1 < text.size())
                word += text[++i];
            else
                word += c;
        }
    }
    if (quote != 0)
        throw LaunchError(std::string("extra arguments: unbalanced ") +
                          (quote == '"' ? "double" : "single") + " quote in '" + text + "'");
    if (inWord)
        words.push_back(std::move(word));
    return words;
}

} // namespace zerolab
