// Implementation of the run-store test helpers.
#include "store_test_util.h"

#include <sqlite3.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace zerolab::test {

std::string execSqlite(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) {
        const std::string msg = db ? sqlite3_errmsg(db) : "cannot open " + path;
        sqlite3_close(db);
        return msg;
    }
    char* err = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
    std::string msg = rc == SQLITE_OK ? "" : err ? err : "SQLite error " + std::to_string(rc);
    sqlite3_free(err);
    sqlite3_close(db);
    return msg;
}

std::string readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void writeBytes(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
}

StepRecord makeStep(std::int64_t step, int world) {
    StepRecord s;
    s.step = step;
    s.wall_time_s = 0.25 * static_cast<double>(step);
    s.tokens = 4096 * (step + 1);
    s.loss = 10.0 / (1.0 + static_cast<double>(step));
    s.lr = 3e-4;
    s.grad_norm = 1.0 + 1.0 / 3.0;
    s.tokens_per_s = 1000.0 + static_cast<double>(step % 7);
    s.mfu = step % 5 == 0 ? kUnknown : 0.125;
    s.step_ms = 12.5;
    s.fwd_ms = 4.0;
    s.bwd_ms = 7.0;
    s.optim_ms = 1.5;
    s.comm = {2.0, 0.5, 0.25, 0.125, 0.0625};
    s.comm_bytes = 1LL << 33;
    s.busbw_gbps = 12.0 / 7.0;
    for (int r = 0; r < world; ++r) {
        RankRecord rr;
        rr.rank = r;
        rr.host = r % 2 ? "node-b" : "node-a";
        for (std::size_t c = 0; c < kMemCategoryCount; ++c)
            rr.mem.bytes[c] = static_cast<long long>((c + 1) * 1000000 + r * 1000 + step);
        rr.rss = 1LL << 30;
        rr.device_used = (1LL << 34) + r;
        rr.peak = (1LL << 35) + step;
        rr.comm = {1.0 + r, 0.5, 0.25, kUnknown, 0.1 * r};
        s.ranks.push_back(rr);
    }
    return s;
}

RunInfo makeRunInfo(const std::string& name, int world) {
    RunInfo info;
    info.name = name;
    info.host = "testhost";
    info.command_line = "mpirun -np " + std::to_string(world) + " zerolab-train";
    info.pid = 0;
    info.world = world;
    info.stage = 2;
    info.precision = "bf16";
    info.params = 124439808;
    info.config_json = R"({"zero_optimization":{"stage":2}})";
    info.tags = {"baseline", "ci"};
    info.notes = "a test run";
    return info;
}

CliResult runCli(const std::vector<std::string>& args) {
    std::vector<std::string> argv = {std::string(ZEROLAB_BIN_DIR) + "/zerolab-runs"};
    argv.insert(argv.end(), args.begin(), args.end());
    return runProcess(argv);
}

} // namespace zerolab::test
