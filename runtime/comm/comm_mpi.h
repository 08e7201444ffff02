// The MPI Communicator for host buffers. Every MPI call runs on one progress
// thread owned by the communicator, in the order the compute thread issued it,
// so that non-blocking collectives overlap compute without relying on MPI's
// asynchronous progress (Open MPI's shared-memory transport has none).
#pragma once

#include "runtime/comm/communicator.h"

#include <condition_variable>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mpi.h>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace zerolab {

// Initialises MPI (MPI_THREAD_SERIALIZED: the progress thread makes every call)
// for the lifetime of the object; finalises it on destruction.
class MpiSession {
public:
    MpiSession(int* argc, char*** argv);
    ~MpiSession();
    MpiSession(const MpiSession&) = delete;
    MpiSession& operator=(const MpiSession&) = delete;
    // Ends the whole job (all ranks) with `code`; for fatal errors on one rank.
    [[noreturn]] static void abort(int code);
};

// What a communicator and its sub-communicators share: the progress thread that makes
// every MPI call in issue order, the statistics, the bf16 type and sum (comm_mpi.cpp).
struct MpiCore;

class MpiCommunicator final : public Communicator {
public:
    // Uses a duplicate of MPI_COMM_WORLD with MPI_ERRORS_RETURN; MPI must be initialised.
    MpiCommunicator();
    ~MpiCommunicator() override;

    int rank() const override { return m_rank; }
    int size() const override { return m_size; }
    std::string host() const override { return m_host; }

    void allReduce(void* buf, std::size_t count, CommDType t) override;
    void reduceScatter(void* buf, std::size_t count, CommDType t) override;
    void allGather(void* buf, std::size_t count, CommDType t) override;
    void broadcast(void* buf, std::size_t count, CommDType t, int root) override;
    CommHandle startAllReduce(void* buf, std::size_t count, CommDType t) override;
    CommHandle startReduceScatter(void* buf, std::size_t count, CommDType t) override;
    CommHandle startAllGather(void* buf, std::size_t count, CommDType t) override;

    void setRanksPerHost(int ranks_per_host) override;
    std::unique_ptr<Communicator> split(CommGroup g, int P) override;
    void allToAll(const void* send, void* recv, std::size_t count, CommDType t) override;
    CommHandle startAllToAll(const void* send, void* recv, std::size_t count, CommDType t) override;

    void sumDoubles(double* x, std::size_t n) override;
    void broadcastBytes(void* buf, std::size_t bytes, int root) override;
    void gatherBytes(const void* in, std::size_t bytes, void* out) override;
    void barrier() override;

    CommStats takeStats() override;
    void setTrace(CommTrace* trace) override;
    void setBeacon(CollectiveBeacon* beacon) override;

private:
    // A sub-communicator of `parent` over `comm`; members: the host of each member.
    MpiCommunicator(std::shared_ptr<MpiCore> core, MPI_Comm comm, MemberHosts members,
                    std::string host);
    std::shared_ptr<CommHandle::State> timedJob(Collective c, long long bytes,
                                                std::function<void()> call);
    // kind: a ring collective; none: an all-to-all.
    std::shared_ptr<CommHandle::State> countedJob(std::optional<Collective> kind, long long bytes,
                                                  double traffic, LinkTraffic link,
                                                  std::function<void()> call);
    std::shared_ptr<CommHandle::State> untimedJob(std::function<void()> call);
    std::shared_ptr<CommHandle::State> allReduceJob(void* buf, std::size_t count, CommDType t);
    std::shared_ptr<CommHandle::State> reduceScatterJob(void* buf, std::size_t count, CommDType t);
    std::shared_ptr<CommHandle::State> allGatherJob(void* buf, std::size_t count, CommDType t);
    std::shared_ptr<CommHandle::State> allToAllJob(const void* send, void* recv, std::size_t count,
                                                   CommDType t);
    MPI_Datatype mpiType(CommDType t) const;
    void check(int rc, const char* what) const;

    std::shared_ptr<MpiCore> m_core;
    bool m_owner = false; // the world communicator: owns the core's MPI objects
    MPI_Comm m_comm = MPI_COMM_NULL;
    int m_rank = 0;
    int m_size = 1;
    std::string m_host;
    // Host (link class) of each member: what counts each collective's traffic.
    MemberHosts m_members = MemberHosts::oneHost(1);
};

} // namespace zerolab
