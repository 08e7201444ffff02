// main() of every GoogleTest executable: puts the test environment of
// tests/CMakeLists.txt (Open MPI as root, Qt offscreen, a private store) in place
// before any test runs, so the binaries behave the same under ctest and run by hand.
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <string>

int main(int argc, char** argv) {
    std::istringstream env(ZEROLAB_TEST_ENV_LIST);
    for (std::string kv; std::getline(env, kv, '|');) {
        const auto eq = kv.find('=');
        if (eq != std::string::npos)
            setenv(kv.substr(0, eq).c_str(), kv.substr(eq + 1).c_str(), /*overwrite=*/0);
    }
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
