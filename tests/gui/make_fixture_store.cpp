// zerolab-gui-fixture DB [STEPS]: writes the GUI's fixture runs into DB (for
// screenshots and manual checks), then the GPU run and a restarted run of two
// segments. STEPS overrides every run's step count.
#include "fixture_store.h"

#include <cstdio>
#include <exception>
#include <string>

int main(int argc, char** argv) {
    if (argc < 2 || argc > 3) {
        std::fprintf(stderr, "usage: zerolab-gui-fixture DB [STEPS]\n");
        return 2;
    }
    try {
        auto runs = zerolab::defaultFixtureRuns();
        runs.push_back(zerolab::gpuFixtureRun());
        runs.push_back(zerolab::restartedFixtureRun());
        if (argc == 3)
            for (auto& r : runs)
                r.steps = std::stoi(argv[2]);
        const auto ids = zerolab::writeFixtureStore(argv[1], runs);
        std::printf("wrote %zu runs to %s\n", ids.size(), argv[1]);
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "zerolab-gui-fixture: %s\n", e.what());
        return 1;
    }
}
