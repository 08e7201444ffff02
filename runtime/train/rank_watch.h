// Rank 0's watch over the other ranks' processes. When a rank dies (SIGKILL, OOM
// killer, a crash), mpirun tears the job down and rank 0, blocked in a collective,
// never gets to record why. This thread notices the dead process first and marks the
// run failed in the store, naming the rank, its pid and host.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace zerolab {

struct RankProcess {
    int rank = 0;
    std::int64_t pid = 0;
    std::string host;
};

class RankWatch {
public:
    // Watches the ranks on `host` other than rank 0 every `period_ms`; on a death writes
    // an error event and status failed to run `run_id` of the store at `db_path` (with
    // its own connection) and one `end` metric line on stdout.
    RankWatch(std::string db_path, std::int64_t run_id, std::vector<RankProcess> ranks,
              std::string host, int period_ms = 200);
    ~RankWatch();
    RankWatch(const RankWatch&) = delete;
    RankWatch& operator=(const RankWatch&) = delete;

    // True once a death has been recorded.
    bool fired() const { return m_fired.load(); }

private:
    void loop();

    std::string m_db;
    std::int64_t m_run = -1;
    std::vector<RankProcess> m_ranks;
    std::string m_host;
    int m_period = 200;
    std::atomic<bool> m_stop{false};
    std::atomic<bool> m_fired{false};
    std::thread m_thread;
};

// Alive and not a zombie (a dead child that mpirun has not reaped yet).
bool processAlive(std::int64_t pid);

} // namespace zerolab
