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
#include <thread>

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

    void sumDoubles(double* x, std::size_t n) override;
    void broadcastBytes(void* buf, std::size_t bytes, int root) override;
    void gatherBytes(const void* in, std::size_t bytes, void* out) override;
    void barrier() override;

    CommStats takeStats() override;

private:
    // Jobs for the progress thread or runBlocking; timed ones add to m_stats where they run.
    std::shared_ptr<CommHandle::State> timedJob(Collective c, long long bytes,
                                                std::function<void()> call);
    std::shared_ptr<CommHandle::State> untimedJob(std::function<void()> call);
    std::shared_ptr<CommHandle::State> allReduceJob(void* buf, std::size_t count, CommDType t);
    std::shared_ptr<CommHandle::State> reduceScatterJob(void* buf, std::size_t count, CommDType t);
    std::shared_ptr<CommHandle::State> allGatherJob(void* buf, std::size_t count, CommDType t);
    // exposed: the compute thread's wait counts as exposed communication.
    CommHandle enqueue(std::shared_ptr<CommHandle::State> s, bool exposed);
    // A blocking call: runs `s` on the calling thread when nothing is queued or running
    // (no thread handoff), else queues it behind the work in flight and waits.
    void runBlocking(std::shared_ptr<CommHandle::State> s, bool exposed);
    void progressLoop();
    // Runs one job (on whichever thread holds the MPI turn), then marks the
    // communicator idle; returns what the job threw.
    std::exception_ptr runJob(CommHandle::State& s);
    void check(int rc, const char* what) const;
    void recordWait(double ms);

    MPI_Comm m_comm = MPI_COMM_NULL;
    MPI_Datatype m_bf16 = MPI_DATATYPE_NULL;
    MPI_Op m_bf16Sum = MPI_OP_NULL;
    int m_rank = 0;
    int m_size = 1;
    std::string m_host;

    std::mutex m_queueMutex;
    std::condition_variable m_queueCv;
    std::deque<std::shared_ptr<CommHandle::State>> m_queue;
    // A job is running on the progress thread or inline on the compute thread; with an
    // empty queue, false means no MPI call is in flight (guarded by m_queueMutex).
    bool m_busy = false;
    bool m_stopping = false;
    std::thread m_progress;

    std::mutex m_statsMutex;
    CommStats m_stats;
};

} // namespace zerolab
