// A Communicator for device buffers that no device-aware library connects: each
// collective copies its data to host memory, runs on a host Communicator (MPI), and
// copies the result back. Slower than NCCL, but it lets several ranks share one GPU,
// so that ZeRO's per-rank memory can be watched on a one-GPU workstation.
#pragma once

#include "kernels/kernels.h"
#include "runtime/comm/communicator.h"

#include <functional>
#include <memory>
#include <vector>

namespace zerolab {

// Buffers of the collectives are device memory of `kernels`; the untimed helpers
// (sumDouble, broadcastBytes, gatherBytes, barrier) take host memory and go straight
// to `host`. Non-blocking collectives copy to the host when they start and back when
// the handle is waited for, on the compute thread (the Kernels' one thread).
// Timing: the copies count as collective time and as exposed time (the compute thread
// is blocked on them); the host collective's own time comes from `host`.
// Host staging memory is host RAM, not counted in the (device) memory ledger.
class StagedCommunicator final : public Communicator {
public:
    // Keeps references to both; they must outlive this object.
    StagedCommunicator(Communicator& host, Kernels& kernels);

    int rank() const override { return m_host.rank(); }
    int size() const override { return m_host.size(); }
    std::string host() const override { return m_host.host(); }

    void allReduce(void* buf, std::size_t count, CommDType t) override;
    void reduceScatter(void* buf, std::size_t count, CommDType t) override;
    void allGather(void* buf, std::size_t count, CommDType t) override;
    void broadcast(void* buf, std::size_t count, CommDType t, int root) override;
    CommHandle startAllReduce(void* buf, std::size_t count, CommDType t) override;
    CommHandle startReduceScatter(void* buf, std::size_t count, CommDType t) override;
    CommHandle startAllGather(void* buf, std::size_t count, CommDType t) override;

    void sumDoubles(double* x, std::size_t n) override { m_host.sumDoubles(x, n); }
    void broadcastBytes(void* buf, std::size_t bytes, int root) override {
        m_host.broadcastBytes(buf, bytes, root);
    }
    void gatherBytes(const void* in, std::size_t bytes, void* out) override {
        m_host.gatherBytes(in, bytes, out);
    }
    void barrier() override { m_host.barrier(); }

    CommStats takeStats() override;
    // The host communicator counts and reports the collectives; the staging copies are
    // not traced.
    void setBeacon(CollectiveBeacon* beacon) override {
        Communicator::setBeacon(beacon);
        m_host.setBeacon(beacon);
    }
    void setTrace(CommTrace* trace) override {
        Communicator::setTrace(trace);
        m_host.setTrace(trace);
    }

private:
    // What one collective sends (copied to the host first) and receives (copied back),
    // as byte ranges of the device buffer, which the host copy mirrors.
    struct Plan {
        Collective collective;
        std::size_t sendOffset, sendBytes;
        std::size_t recvOffset, recvBytes;
        std::size_t totalBytes;
    };
    Plan plan(Collective c, std::size_t count, CommDType t, int root = 0) const;
    // Copies the plan's send range to `stage`; returns the milliseconds it took.
    double toHost(const Plan& p, const void* buf, char* stage);
    double toDevice(const Plan& p, void* buf, const char* stage);
    void addCopyTime(Collective c, double ms);
    // A blocking collective: copy out, `hostCall` on the staging buffer, copy back.
    void blocking(const Plan& p, void* buf, const std::function<void(char*)>& hostCall);
    CommHandle startStaged(Collective c, void* buf, std::size_t count, CommDType t);

    Communicator& m_host;
    Kernels& m_kernels;
    std::vector<char> m_blockingStage; // reused by blocking collectives
    CommStats m_copyStats;             // copy time, added to the host's stats
};

} // namespace zerolab
