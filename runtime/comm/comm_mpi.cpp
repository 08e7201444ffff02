// MPI collectives on a progress thread, with bf16 sums through a user-defined
// MPI_Op. Timing: each collective is timed where it runs (the progress thread);
// the compute thread's blocked time is the exposed communication.
#include "runtime/comm/comm_mpi.h"

#include "kernels/bf16.h"
#include "runtime/comm/comm_handle_state.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <unistd.h>

namespace zerolab {

namespace {

void bf16SumOp(void* in, void* inout, int* len, MPI_Datatype*) {
    const auto* a = static_cast<const Bf16*>(in);
    auto* b = static_cast<Bf16*>(inout);
    for (int i = 0; i < *len; ++i)
        b[i] = bf16FromFloat(floatFromBf16(a[i]) + floatFromBf16(b[i]));
}

std::string mpiErrorString(int rc) {
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    return std::string(msg, static_cast<std::size_t>(len));
}

int checkedCount(std::size_t count, const char* what) {
    if (count > static_cast<std::size_t>(INT32_MAX))
        throw CommError(std::string(what) + ": count " + std::to_string(count) +
                        " exceeds MPI's int range");
    return static_cast<int>(count);
}

} // namespace

MpiSession::MpiSession(int* argc, char*** argv) {
    // Open MPI's shared-memory transport busy-polls while a collective waits for its peers,
    // and on a CPU run the progress thread polls on the cores the compute thread needs:
    // yielding while idle hands the core back to compute (on micro, ZeRO-1, 2 ranks on 2
    // cores, overlap_comm went from slower than no overlap to faster; docs/performance.md).
    // Set before MPI_Init, which reads it; a value the user exported wins.
    setenv("OMPI_MCA_mpi_yield_when_idle", "1", 0);
    int provided = 0;
    const int rc = MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided);
    if (rc != MPI_SUCCESS)
        throw CommError("MPI_Init_thread failed: " + mpiErrorString(rc));
    if (provided < MPI_THREAD_SERIALIZED) {
        MPI_Finalize();
        throw CommError("the MPI library does not provide MPI_THREAD_SERIALIZED (got level " +
                        std::to_string(provided) + ")");
    }
}

MpiSession::~MpiSession() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized)
        MPI_Finalize();
}

void MpiSession::abort(int code) {
    MPI_Abort(MPI_COMM_WORLD, code);
    std::_Exit(code);
}

// The progress thread and what every communicator of one world shares.
struct MpiCore {
    MPI_Datatype bf16 = MPI_DATATYPE_NULL;
    MPI_Op bf16Sum = MPI_OP_NULL;
    CollectiveBeacon* beacon = nullptr; // set between collectives on the compute thread
    CommTrace* trace = nullptr;

    std::mutex queueMutex;
    std::condition_variable queueCv;
    std::deque<std::shared_ptr<CommHandle::State>> queue;
    // A job is running on the progress thread or inline on the compute thread; with an
    // empty queue, false means no MPI call is in flight (guarded by queueMutex).
    bool busy = false;
    bool stopping = false;
    std::thread progress;

    std::mutex statsMutex;
    CommStats stats;

    void start() {
        progress = std::thread([this] { progressLoop(); });
    }
    void stop() {
        {
            std::lock_guard lock(queueMutex);
            stopping = true;
        }
        queueCv.notify_all();
        if (progress.joinable())
            progress.join();
    }

    void progressLoop() {
        for (;;) {
            std::shared_ptr<CommHandle::State> s;
            {
                std::unique_lock lock(queueMutex);
                queueCv.wait(lock, [&] { return stopping || !queue.empty(); });
                if (queue.empty())
                    return;
                s = std::move(queue.front());
                queue.pop_front();
                busy = true;
            }
            // Idle again before the waiter wakes, so that its next blocking call can run inline.
            s->finish(runJob(*s));
        }
    }

    // Runs one job (on whichever thread holds the MPI turn), then marks the
    // communicator idle; returns what the job threw.
    std::exception_ptr runJob(CommHandle::State& s) {
        std::exception_ptr error;
        {
            BeaconScope counted(beacon);
            try {
                s.job();
            } catch (...) {
                error = std::current_exception();
            }
        }
        std::lock_guard lock(queueMutex);
        busy = false;
        return error;
    }

    void recordWait(double ms) {
        std::lock_guard lock(statsMutex);
        stats.exposed_ms += ms;
    }

    // exposed: the compute thread's wait counts as exposed communication.
    CommHandle enqueue(std::shared_ptr<CommHandle::State> s, bool exposed) {
        if (exposed)
            s->onWaited = [this, trace = s->trace, seq = s->traceSeq](double ms) {
                recordWait(ms);
                if (trace) {
                    const auto end = CommTrace::Clock::now();
                    trace->waited(seq,
                                  end - std::chrono::duration_cast<CommTrace::Clock::duration>(
                                            std::chrono::duration<double, std::milli>(ms)),
                                  end);
                }
            };
        {
            std::lock_guard lock(queueMutex);
            queue.push_back(s);
        }
        queueCv.notify_one();
        return CommHandle(std::move(s));
    }

    // A blocking call: runs `s` on the calling thread when nothing is queued or running
    // (no thread handoff), else queues it behind the work in flight and waits.
    void runBlocking(std::shared_ptr<CommHandle::State> s, bool exposed) {
        // Only the compute thread queues work, so an empty queue and an idle progress
        // thread stay that way until we return: the call below is the only MPI call in
        // flight (MPI_THREAD_SERIALIZED), and it keeps its place in the issue order. What
        // it saves is the handoff, two thread wake-ups (several microseconds) per call.
        bool inlineCall = false;
        {
            std::lock_guard lock(queueMutex);
            if (queue.empty() && !busy)
                inlineCall = busy = true;
        }
        if (!inlineCall) {
            enqueue(std::move(s), exposed).wait();
            return;
        }
        const auto t0 = std::chrono::steady_clock::now();
        const std::exception_ptr error = runJob(*s);
        const auto t1 = std::chrono::steady_clock::now();
        if (exposed) {
            recordWait(std::chrono::duration<double, std::milli>(t1 - t0).count());
            if (s->trace)
                s->trace->waited(s->traceSeq, t0, t1);
        }
        if (error)
            std::rethrow_exception(error);
    }
};

MpiCommunicator::MpiCommunicator() : m_core(std::make_shared<MpiCore>()), m_owner(true) {
    check(MPI_Comm_dup(MPI_COMM_WORLD, &m_comm), "MPI_Comm_dup");
    MPI_Comm_set_errhandler(m_comm, MPI_ERRORS_RETURN);
    check(MPI_Comm_rank(m_comm, &m_rank), "MPI_Comm_rank");
    check(MPI_Comm_size(m_comm, &m_size), "MPI_Comm_size");
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    m_host = host;
    m_members = MemberHosts::oneHost(m_size);
    check(MPI_Type_contiguous(2, MPI_BYTE, &m_core->bf16), "MPI_Type_contiguous");
    check(MPI_Type_commit(&m_core->bf16), "MPI_Type_commit");
    check(MPI_Op_create(&bf16SumOp, 1, &m_core->bf16Sum), "MPI_Op_create");
    m_core->start();
}

MpiCommunicator::MpiCommunicator(std::shared_ptr<MpiCore> core, MPI_Comm comm, MemberHosts members,
                                 std::string host)
    : m_core(std::move(core)), m_comm(comm), m_host(std::move(host)),
      m_members(std::move(members)) {
    MPI_Comm_set_errhandler(m_comm, MPI_ERRORS_RETURN);
    check(MPI_Comm_rank(m_comm, &m_rank), "MPI_Comm_rank");
    check(MPI_Comm_size(m_comm, &m_size), "MPI_Comm_size");
}

MpiCommunicator::~MpiCommunicator() {
    if (!m_owner) {
        // Freeing is an MPI call: it takes its turn on the progress thread.
        try {
            m_core->runBlocking(untimedJob([this] { MPI_Comm_free(&m_comm); }), false);
        } catch (...) {
            // The job is ending on an error already being reported.
        }
        return;
    }
    m_core->stop();
    MPI_Op_free(&m_core->bf16Sum);
    MPI_Type_free(&m_core->bf16);
    MPI_Comm_free(&m_comm);
}

void MpiCommunicator::check(int rc, const char* what) const {
    if (rc != MPI_SUCCESS)
        throw CommError("rank " + std::to_string(m_rank) + " on " + m_host + ": " + what +
                        " failed: " + mpiErrorString(rc));
}

void MpiCommunicator::setTrace(CommTrace* trace) {
    m_trace = trace;
    m_core->trace = trace;
}

void MpiCommunicator::setBeacon(CollectiveBeacon* beacon) {
    m_beacon = beacon;
    m_core->beacon = beacon;
}

MPI_Datatype MpiCommunicator::mpiType(CommDType t) const {
    switch (t) {
    case CommDType::F32:
        return MPI_FLOAT;
    case CommDType::BF16:
        return m_core->bf16;
    case CommDType::U8:
        break;
    }
    return MPI_BYTE;
}

void MpiCommunicator::setRanksPerHost(int ranks_per_host) {
    if (!m_owner || !groupsDivide(ranks_per_host, m_size))
        throw CommError("rank " + std::to_string(m_rank) + ": " + std::to_string(ranks_per_host) +
                        " ranks per host do not divide a world of " + std::to_string(m_size));
    m_members = MemberHosts::consecutive(m_size, ranks_per_host);
}

std::unique_ptr<Communicator> MpiCommunicator::split(CommGroup g, int P) {
    if (!m_owner || !groupsDivide(P, m_size))
        throw CommError("rank " + std::to_string(m_rank) + ": groups of " + std::to_string(P) +
                        " ranks do not divide a world of " + std::to_string(m_size));
    const int color = groupColor(g, m_rank, P);
    MemberHosts members = m_members.group(g, m_rank, P);
    MPI_Comm sub = MPI_COMM_NULL;
    m_core->runBlocking(
        untimedJob([&] { check(MPI_Comm_split(m_comm, color, m_rank, &sub), "MPI_Comm_split"); }),
        false);
    return std::unique_ptr<Communicator>(
        new MpiCommunicator(m_core, sub, std::move(members), m_host));
}

std::shared_ptr<CommHandle::State> MpiCommunicator::countedJob(std::optional<Collective> kind,
                                                               long long bytes, double traffic,
                                                               LinkTraffic link,
                                                               std::function<void()> call) {
    auto s = std::make_shared<CommHandle::State>();
    CommTrace* trace = m_core->trace;
    // The step timeline knows the four ring kinds; an all-to-all is counted, not traced.
    if (trace && kind) {
        s->trace = trace;
        s->traceSeq = trace->issued(*kind, bytes, CommTrace::Clock::now());
    }
    s->job = [core = m_core.get(), kind, bytes, traffic, link, call = std::move(call),
              trace = s->trace, seq = s->traceSeq] {
        const auto t0 = std::chrono::steady_clock::now();
        call();
        const auto t1 = std::chrono::steady_clock::now();
        if (trace)
            trace->ran(seq, t0, t1);
        const double ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
        std::lock_guard lock(core->statsMutex);
        core->stats.count(kind, ms, bytes, traffic, link);
    };
    return s;
}

std::shared_ptr<CommHandle::State> MpiCommunicator::timedJob(Collective c, long long bytes,
                                                             std::function<void()> call) {
    const double traffic = static_cast<double>(bytes) * ringTrafficFactor(c, m_size);
    return countedJob(c, bytes, traffic, m_members.ring(traffic), std::move(call));
}

std::shared_ptr<CommHandle::State> MpiCommunicator::untimedJob(std::function<void()> call) {
    auto s = std::make_shared<CommHandle::State>();
    s->job = std::move(call);
    return s;
}

std::shared_ptr<CommHandle::State> MpiCommunicator::allReduceJob(void* buf, std::size_t count,
                                                                 CommDType t) {
    const int n = checkedCount(count, "all-reduce");
    const long long bytes = static_cast<long long>(count * commDTypeBytes(t));
    if (t == CommDType::U8)
        throw CommError("all-reduce: byte payloads cannot be summed");
    return timedJob(Collective::AllReduce, bytes, [this, buf, n, t] {
        if (t == CommDType::F32)
            check(MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_FLOAT, MPI_SUM, m_comm), "MPI_Allreduce");
        else
            check(MPI_Allreduce(MPI_IN_PLACE, buf, n, m_core->bf16, m_core->bf16Sum, m_comm),
                  "MPI_Allreduce(bf16)");
    });
}

std::shared_ptr<CommHandle::State> MpiCommunicator::reduceScatterJob(void* buf, std::size_t count,
                                                                     CommDType t) {
    const int n = checkedCount(count, "reduce-scatter");
    const std::size_t esz = commDTypeBytes(t);
    const long long bytes = static_cast<long long>(count * esz * m_size);
    if (t == CommDType::U8)
        throw CommError("reduce-scatter: byte payloads cannot be summed");
    return timedJob(Collective::ReduceScatter, bytes, [this, buf, n, t, esz] {
        // In place: MPI leaves the summed slice at the front; move it to slice `rank`.
        if (t == CommDType::F32)
            check(MPI_Reduce_scatter_block(MPI_IN_PLACE, buf, n, MPI_FLOAT, MPI_SUM, m_comm),
                  "MPI_Reduce_scatter_block");
        else
            check(MPI_Reduce_scatter_block(MPI_IN_PLACE, buf, n, m_core->bf16, m_core->bf16Sum,
                                           m_comm),
                  "MPI_Reduce_scatter_block(bf16)");
        if (m_rank != 0) {
            auto* b = static_cast<char*>(buf);
            std::memmove(b + static_cast<std::size_t>(m_rank) * n * esz, b, n * esz);
        }
    });
}

std::shared_ptr<CommHandle::State> MpiCommunicator::allGatherJob(void* buf, std::size_t count,
                                                                 CommDType t) {
    const int n = checkedCount(count, "all-gather");
    const std::size_t esz = commDTypeBytes(t);
    const long long bytes = static_cast<long long>(count * esz * m_size);
    return timedJob(Collective::AllGather, bytes, [this, buf, n, t] {
        check(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, n, mpiType(t), m_comm),
              "MPI_Allgather");
    });
}

std::shared_ptr<CommHandle::State> MpiCommunicator::allToAllJob(const void* send, void* recv,
                                                                std::size_t count, CommDType t) {
    const int n = checkedCount(count, "all-to-all");
    const std::size_t block = count * commDTypeBytes(t);
    const long long bytes = static_cast<long long>(block) * m_size;
    const LinkTraffic link = m_members.allToAll(static_cast<double>(block), m_rank);
    return countedJob(std::nullopt, bytes, link.total(), link, [this, send, recv, n, t] {
        check(MPI_Alltoall(send, n, mpiType(t), recv, n, mpiType(t), m_comm), "MPI_Alltoall");
    });
}

CommHandle MpiCommunicator::startAllReduce(void* buf, std::size_t count, CommDType t) {
    return m_core->enqueue(allReduceJob(buf, count, t), true);
}

CommHandle MpiCommunicator::startReduceScatter(void* buf, std::size_t count, CommDType t) {
    return m_core->enqueue(reduceScatterJob(buf, count, t), true);
}

CommHandle MpiCommunicator::startAllGather(void* buf, std::size_t count, CommDType t) {
    return m_core->enqueue(allGatherJob(buf, count, t), true);
}

CommHandle MpiCommunicator::startAllToAll(const void* send, void* recv, std::size_t count,
                                          CommDType t) {
    return m_core->enqueue(allToAllJob(send, recv, count, t), true);
}

void MpiCommunicator::allReduce(void* buf, std::size_t count, CommDType t) {
    m_core->runBlocking(allReduceJob(buf, count, t), true);
}

void MpiCommunicator::reduceScatter(void* buf, std::size_t count, CommDType t) {
    m_core->runBlocking(reduceScatterJob(buf, count, t), true);
}

void MpiCommunicator::allGather(void* buf, std::size_t count, CommDType t) {
    m_core->runBlocking(allGatherJob(buf, count, t), true);
}

void MpiCommunicator::allToAll(const void* send, void* recv, std::size_t count, CommDType t) {
    m_core->runBlocking(allToAllJob(send, recv, count, t), true);
}

void MpiCommunicator::broadcast(void* buf, std::size_t count, CommDType t, int root) {
    const int n = checkedCount(count, "broadcast");
    const long long bytes = static_cast<long long>(count * commDTypeBytes(t));
    m_core->runBlocking(timedJob(Collective::Broadcast, bytes,
                                 [this, buf, n, t, root] {
                                     check(MPI_Bcast(buf, n, mpiType(t), root, m_comm),
                                           "MPI_Bcast");
                                 }),
                        true);
}

void MpiCommunicator::sumDoubles(double* x, std::size_t n) {
    const int count = checkedCount(n, "sumDoubles");
    m_core->runBlocking(untimedJob([&] {
                            check(
                                MPI_Allreduce(MPI_IN_PLACE, x, count, MPI_DOUBLE, MPI_SUM, m_comm),
                                "MPI_Allreduce(doubles)");
                        }),
                        false);
}

void MpiCommunicator::broadcastBytes(void* buf, std::size_t bytes, int root) {
    const int n = checkedCount(bytes, "broadcast");
    m_core->runBlocking(
        untimedJob([&] { check(MPI_Bcast(buf, n, MPI_BYTE, root, m_comm), "MPI_Bcast(bytes)"); }),
        false);
}

void MpiCommunicator::gatherBytes(const void* in, std::size_t bytes, void* out) {
    const int n = checkedCount(bytes, "gather");
    m_core->runBlocking(untimedJob([&] {
                            check(MPI_Gather(in, n, MPI_BYTE, out, n, MPI_BYTE, 0, m_comm),
                                  "MPI_Gather");
                        }),
                        false);
}

void MpiCommunicator::barrier() {
    m_core->runBlocking(untimedJob([&] { check(MPI_Barrier(m_comm), "MPI_Barrier"); }), false);
}

CommStats MpiCommunicator::takeStats() {
    std::lock_guard lock(m_core->statsMutex);
    CommStats s = m_core->stats;
    m_core->stats = CommStats{};
    return s;
}

} // namespace zerolab
