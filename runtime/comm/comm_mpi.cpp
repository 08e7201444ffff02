// MPI collectives on a progress thread, with bf16 sums through a user-defined
// MPI_Op. Timing: each collective is timed where it runs (the progress thread);
// the compute thread's blocked time is the exposed communication.
#include "runtime/comm/comm_mpi.h"

#include "kernels/bf16.h"
#include "runtime/comm/comm_handle_state.h"

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

MpiCommunicator::MpiCommunicator() {
    check(MPI_Comm_dup(MPI_COMM_WORLD, &m_comm), "MPI_Comm_dup");
    MPI_Comm_set_errhandler(m_comm, MPI_ERRORS_RETURN);
    check(MPI_Comm_rank(m_comm, &m_rank), "MPI_Comm_rank");
    check(MPI_Comm_size(m_comm, &m_size), "MPI_Comm_size");
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    m_host = host;
    check(MPI_Type_contiguous(2, MPI_BYTE, &m_bf16), "MPI_Type_contiguous");
    check(MPI_Type_commit(&m_bf16), "MPI_Type_commit");
    check(MPI_Op_create(&bf16SumOp, 1, &m_bf16Sum), "MPI_Op_create");
    m_progress = std::thread([this] { progressLoop(); });
}

MpiCommunicator::~MpiCommunicator() {
    {
        std::lock_guard lock(m_queueMutex);
        m_stopping = true;
    }
    m_queueCv.notify_all();
    if (m_progress.joinable())
        m_progress.join();
    MPI_Op_free(&m_bf16Sum);
    MPI_Type_free(&m_bf16);
    MPI_Comm_free(&m_comm);
}

void MpiCommunicator::check(int rc, const char* what) const {
    if (rc != MPI_SUCCESS)
        throw CommError("rank " + std::to_string(m_rank) + " on " + m_host + ": " + what +
                        " failed: " + mpiErrorString(rc));
}

void MpiCommunicator::progressLoop() {
    for (;;) {
        std::shared_ptr<CommHandle::State> s;
        {
            std::unique_lock lock(m_queueMutex);
            m_queueCv.wait(lock, [&] { return m_stopping || !m_queue.empty(); });
            if (m_queue.empty())
                return;
            s = std::move(m_queue.front());
            m_queue.pop_front();
            m_busy = true;
        }
        // Idle again before the waiter wakes, so that its next blocking call can run inline.
        s->finish(runJob(*s));
    }
}

std::exception_ptr MpiCommunicator::runJob(CommHandle::State& s) {
    std::exception_ptr error;
    {
        // setBeacon changes it only between collectives, on the compute thread.
        BeaconScope counted(m_beacon);
        try {
            s.job();
        } catch (...) {
            error = std::current_exception();
        }
    }
    std::lock_guard lock(m_queueMutex);
    m_busy = false;
    return error;
}

CommHandle MpiCommunicator::enqueue(std::shared_ptr<CommHandle::State> s, bool exposed) {
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
        std::lock_guard lock(m_queueMutex);
        m_queue.push_back(s);
    }
    m_queueCv.notify_one();
    return CommHandle(std::move(s));
}

void MpiCommunicator::recordWait(double ms) {
    std::lock_guard lock(m_statsMutex);
    m_stats.exposed_ms += ms;
}

void MpiCommunicator::runBlocking(std::shared_ptr<CommHandle::State> s, bool exposed) {
    // Only this (compute) thread queues work, so an empty queue and an idle progress
    // thread stay that way until we return: the call below is the only MPI call in
    // flight (MPI_THREAD_SERIALIZED), and it keeps its place in the issue order. What it
    // saves is the handoff, two thread wake-ups (several microseconds) per collective.
    bool inlineCall = false;
    {
        std::lock_guard lock(m_queueMutex);
        if (m_queue.empty() && !m_busy)
            inlineCall = m_busy = true;
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

std::shared_ptr<CommHandle::State> MpiCommunicator::timedJob(Collective c, long long bytes,
                                                             std::function<void()> call) {
    auto s = std::make_shared<CommHandle::State>();
    if (m_trace) {
        s->trace = m_trace;
        s->traceSeq = m_trace->issued(c, bytes, CommTrace::Clock::now());
    }
    s->job = [this, c, bytes, call = std::move(call), trace = s->trace, seq = s->traceSeq] {
        const auto t0 = std::chrono::steady_clock::now();
        call();
        const auto t1 = std::chrono::steady_clock::now();
        if (trace)
            trace->ran(seq, t0, t1);
        const double ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
        std::lock_guard lock(m_statsMutex);
        auto& st = m_stats[c];
        st.ms += ms;
        st.bytes += bytes;
        st.calls += 1;
    };
    return s;
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
    return timedJob(Collective::AllReduce, bytes, [this, buf, n, t] {
        if (t == CommDType::F32)
            check(MPI_Allreduce(MPI_IN_PLACE, buf, n, MPI_FLOAT, MPI_SUM, m_comm), "MPI_Allreduce");
        else
            check(MPI_Allreduce(MPI_IN_PLACE, buf, n, m_bf16, m_bf16Sum, m_comm),
                  "MPI_Allreduce(bf16)");
    });
}

std::shared_ptr<CommHandle::State> MpiCommunicator::reduceScatterJob(void* buf, std::size_t count,
                                                                     CommDType t) {
    const int n = checkedCount(count, "reduce-scatter");
    const std::size_t esz = commDTypeBytes(t);
    const long long bytes = static_cast<long long>(count * esz * m_size);
    return timedJob(Collective::ReduceScatter, bytes, [this, buf, n, t, esz] {
        // In place: MPI leaves the summed slice at the front; move it to slice `rank`.
        if (t == CommDType::F32)
            check(MPI_Reduce_scatter_block(MPI_IN_PLACE, buf, n, MPI_FLOAT, MPI_SUM, m_comm),
                  "MPI_Reduce_scatter_block");
        else
            check(MPI_Reduce_scatter_block(MPI_IN_PLACE, buf, n, m_bf16, m_bf16Sum, m_comm),
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
        check(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, n,
                            t == CommDType::F32 ? MPI_FLOAT : m_bf16, m_comm),
              "MPI_Allgather");
    });
}

CommHandle MpiCommunicator::startAllReduce(void* buf, std::size_t count, CommDType t) {
    return enqueue(allReduceJob(buf, count, t), true);
}

CommHandle MpiCommunicator::startReduceScatter(void* buf, std::size_t count, CommDType t) {
    return enqueue(reduceScatterJob(buf, count, t), true);
}

CommHandle MpiCommunicator::startAllGather(void* buf, std::size_t count, CommDType t) {
    return enqueue(allGatherJob(buf, count, t), true);
}

void MpiCommunicator::allReduce(void* buf, std::size_t count, CommDType t) {
    runBlocking(allReduceJob(buf, count, t), true);
}

void MpiCommunicator::reduceScatter(void* buf, std::size_t count, CommDType t) {
    runBlocking(reduceScatterJob(buf, count, t), true);
}

void MpiCommunicator::allGather(void* buf, std::size_t count, CommDType t) {
    runBlocking(allGatherJob(buf, count, t), true);
}

void MpiCommunicator::broadcast(void* buf, std::size_t count, CommDType t, int root) {
    const int n = checkedCount(count, "broadcast");
    const long long bytes = static_cast<long long>(count * commDTypeBytes(t));
    runBlocking(timedJob(Collective::Broadcast, bytes,
                         [this, buf, n, t, root] {
                             check(MPI_Bcast(buf, n, t == CommDType::F32 ? MPI_FLOAT : m_bf16, root,
                                             m_comm),
                                   "MPI_Bcast");
                         }),
                true);
}

void MpiCommunicator::sumDoubles(double* x, std::size_t n) {
    const int count = checkedCount(n, "sumDoubles");
    runBlocking(untimedJob([&] {
                    check(MPI_Allreduce(MPI_IN_PLACE, x, count, MPI_DOUBLE, MPI_SUM, m_comm),
                          "MPI_Allreduce(doubles)");
                }),
                false);
}

void MpiCommunicator::broadcastBytes(void* buf, std::size_t bytes, int root) {
    const int n = checkedCount(bytes, "broadcast");
    runBlocking(
        untimedJob([&] { check(MPI_Bcast(buf, n, MPI_BYTE, root, m_comm), "MPI_Bcast(bytes)"); }),
        false);
}

void MpiCommunicator::gatherBytes(const void* in, std::size_t bytes, void* out) {
    const int n = checkedCount(bytes, "gather");
    runBlocking(untimedJob([&] {
                    check(MPI_Gather(in, n, MPI_BYTE, out, n, MPI_BYTE, 0, m_comm), "MPI_Gather");
                }),
                false);
}

void MpiCommunicator::barrier() {
    runBlocking(untimedJob([&] { check(MPI_Barrier(m_comm), "MPI_Barrier"); }), false);
}

CommStats MpiCommunicator::takeStats() {
    std::lock_guard lock(m_statsMutex);
    CommStats s = m_stats;
    m_stats = CommStats{};
    return s;
}

} // namespace zerolab
