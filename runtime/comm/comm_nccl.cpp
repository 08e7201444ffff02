// NCCL collectives on a communication stream ordered after the compute stream by
// events, timed by CUDA events; ZeRO++'s sub-communicators and all-to-all on the same
// stream; bootstrap (unique id, local rank) and the untimed host-side helpers over MPI.
#include "runtime/comm/comm_nccl.h"

#include "runtime/comm/comm_handle_state.h"
#include "runtime/comm/visible_gpus.h"

#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

namespace zerolab {

namespace {

constexpr int kHostNameBytes = 256;

ncclDataType_t ncclType(CommDType t) {
    return t == CommDType::F32 ? ncclFloat32 : t == CommDType::BF16 ? ncclBfloat16 : ncclUint8;
}

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void checkCudaOf(const std::string& who, cudaError_t rc, const char* what) {
    if (rc != cudaSuccess)
        throw CommError(who + ": " + what + " failed: " + cudaGetErrorName(rc) + " (" +
                        cudaGetErrorString(rc) + ")");
}

} // namespace

struct NcclCommunicator::Pending {
    std::optional<Collective> kind; // none: an all-to-all
    long long bytes = 0;
    double traffic = 0;
    LinkTraffic link;
    cudaEvent_t ready = nullptr; // on the compute stream: the inputs are written
    cudaEvent_t start = nullptr; // on the communication stream, around the NCCL call
    cudaEvent_t stop = nullptr;
    std::shared_ptr<CommHandle::State> state; // non-blocking only
    CollectiveBeacon* beacon = nullptr;       // entered at issue; left once, here or below

    Pending() = default;
    Pending(const Pending&) = delete;
    Pending& operator=(const Pending&) = delete;
    // Only created events are destroyed: a failed cudaEventDestroy(nullptr) would linger as
    // the thread's last CUDA error and surface at an unrelated later check.
    ~Pending() {
        if (beacon)
            beacon->leave();
        for (cudaEvent_t e : {ready, start, stop})
            if (e != nullptr)
                cudaEventDestroy(e);
    }
};

struct NcclCommunicator::Core {
    cudaStream_t stream = nullptr;  // every collective of the world and its groups
    cudaStream_t compute = nullptr; // what each collective waits for (setComputeStream)
    int device = 0;
    int worldRank = 0;
    std::string host;
    std::string who; // the world rank, host and GPU, for errors of the completion thread
    CollectiveBeacon* beacon = nullptr; // set between collectives on the compute thread

    std::mutex queueMutex;
    std::condition_variable queueCv;
    std::deque<std::shared_ptr<Pending>> queue;
    bool stopping = false;
    std::thread completion;

    std::mutex statsMutex;
    CommStats stats;

    // The world's and its groups' NCCL communicators, with what each is called in an
    // error line, for the watch's polls and abort (any thread).
    std::mutex commsMutex;
    std::vector<std::pair<ncclComm_t, std::string>> comms;
    bool aborted = false;

    void addComm(ncclComm_t c, std::string name) {
        std::lock_guard lock(commsMutex);
        comms.emplace_back(c, std::move(name));
    }

    // False once the communicators were aborted: ncclCommDestroy must not follow.
    bool removeComm(ncclComm_t c) {
        std::lock_guard lock(commsMutex);
        std::erase_if(comms, [&](const auto& e) { return e.first == c; });
        return !aborted;
    }

    std::vector<std::string> asyncErrors() {
        std::lock_guard lock(commsMutex);
        std::vector<std::string> errors;
        for (const auto& [c, name] : comms) {
            ncclResult_t rc = ncclSuccess;
            const ncclResult_t got = ncclCommGetAsyncError(c, &rc);
            if (got != ncclSuccess)
                rc = got; // cannot even be asked: as broken as an error
            if (rc == ncclSuccess || rc == ncclInProgress)
                continue;
            std::string line = name + ": " + ncclGetErrorString(rc);
            if (const char* last = ncclGetLastError(c); last != nullptr && *last != '\0')
                line += std::string("; ") + last;
            errors.push_back(std::move(line));
        }
        return errors;
    }

    void abortAll() {
        std::lock_guard lock(commsMutex);
        if (std::exchange(aborted, true))
            return;
        // Groups first: they were split from the world.
        for (auto it = comms.rbegin(); it != comms.rend(); ++it)
            ncclCommAbort(it->first);
    }

    ~Core() {
        stop();
        if (stream != nullptr)
            cudaStreamDestroy(stream);
    }

    void start() {
        completion = std::thread([this] { completionLoop(); });
    }

    // Finishes what is queued, then ends the completion thread.
    void stop() {
        {
            std::lock_guard lock(queueMutex);
            stopping = true;
        }
        queueCv.notify_all();
        if (completion.joinable())
            completion.join();
    }

    void recordWait(double ms) {
        std::lock_guard lock(statsMutex);
        stats.exposed_ms += ms;
    }

    // Waits for p's stop event and counts it.
    void complete(Pending& p) {
        const cudaError_t rc = cudaEventSynchronize(p.stop);
        if (p.beacon)
            std::exchange(p.beacon, nullptr)->leave();
        float ms = 0;
        checkCudaOf(who, rc, "cudaEventSynchronize(collective)");
        checkCudaOf(who, cudaEventElapsedTime(&ms, p.start, p.stop), "cudaEventElapsedTime");
        std::lock_guard lock(statsMutex);
        stats.count(p.kind, ms, p.bytes, p.traffic, p.link);
    }

    void completionLoop() {
        // The CUDA runtime's current device is per thread.
        const cudaError_t deviceRc = cudaSetDevice(device);
        for (;;) {
            std::shared_ptr<Pending> p;
            {
                std::unique_lock lock(queueMutex);
                queueCv.wait(lock, [&] { return stopping || !queue.empty(); });
                if (queue.empty())
                    return;
                p = std::move(queue.front());
                queue.pop_front();
            }
            std::exception_ptr error;
            try {
                checkCudaOf(who, deviceRc, "cudaSetDevice(completion thread)");
                complete(*p);
            } catch (...) {
                error = std::current_exception();
            }
            p->state->finish(error);
        }
    }
};

std::string NcclCommunicator::who() const {
    std::string w = "rank " + std::to_string(m_owner ? m_rank : m_core->worldRank) + " on " +
                    m_host + " (GPU " + std::to_string(m_device) + ")";
    if (!m_owner)
        w += ", member " + std::to_string(m_rank) + " of a group of " + std::to_string(m_size);
    return w;
}

void NcclCommunicator::checkNccl(ncclResult_t rc, const char* what) const {
    if (rc == ncclSuccess || rc == ncclInProgress)
        return;
    std::string detail = ncclGetErrorString(rc);
    if (m_nccl != nullptr) {
        const char* last = ncclGetLastError(m_nccl);
        if (last != nullptr && *last != '\0')
            detail += std::string("; ") + last;
    }
    throw CommError(who() + ": " + what + " failed: " + detail);
}

void NcclCommunicator::checkCuda(cudaError_t rc, const char* what) const {
    checkCudaOf(who(), rc, what);
}

void NcclCommunicator::checkMpi(int rc, const char* what) const {
    if (rc == MPI_SUCCESS)
        return;
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    throw CommError(who() + ": " + what + " failed: " + std::string(msg, len));
}

void NcclCommunicator::refuseBytes(CommDType t, const char* what) const {
    if (t == CommDType::U8)
        throw CommError(who() + ": " + what + ": byte payloads cannot be summed");
}

NcclCommunicator::NcclCommunicator(NcclReduce reduce)
    : m_core(std::make_shared<Core>()), m_owner(true), m_reduce(reduce) {
    checkMpi(MPI_Comm_dup(MPI_COMM_WORLD, &m_mpi), "MPI_Comm_dup");
    checkMpi(MPI_Comm_set_errhandler(m_mpi, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    checkMpi(MPI_Comm_rank(m_mpi, &m_rank), "MPI_Comm_rank");
    checkMpi(MPI_Comm_size(m_mpi, &m_size), "MPI_Comm_size");
    m_members = MemberHosts::oneHost(m_size);
    char name[kHostNameBytes] = {};
    gethostname(name, kHostNameBytes - 1);
    m_host = name;

    // The GPU from every rank's view (gpu_choice.h): a per-rank CUDA_VISIBLE_DEVICES shows
    // each rank one device 0, different GPUs that only their UUIDs tell apart.
    const std::vector<RankGpus> all = exchangeRankGpus(
        visibleGpus(m_host), m_size, [&](const char* in, char* out, std::size_t n) {
            checkMpi(MPI_Allgather(in, static_cast<int>(n), MPI_CHAR, out, static_cast<int>(n),
                                   MPI_CHAR, m_mpi),
                     "MPI_Allgather(GPU views)");
        });
    const GpuChoice choice = chooseGpu(all, m_rank);
    m_device = choice.device;
    if (!choice.nccl)
        throw CommError(who() + ": " + choice.reason + " (docs/gpu.md)");
    checkCuda(cudaSetDevice(m_device), "cudaSetDevice");

    ncclUniqueId id{};
    if (m_rank == 0)
        checkNccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
    checkMpi(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, m_mpi), "MPI_Bcast(ncclUniqueId)");
    checkNccl(ncclCommInitRank(&m_nccl, m_size, id, m_rank), "ncclCommInitRank");
    m_core->addComm(m_nccl, "the world communicator");
    m_core->device = m_device;
    m_core->worldRank = m_rank;
    m_core->host = m_host;
    m_core->who = who();
    checkCuda(cudaStreamCreateWithFlags(&m_core->stream, cudaStreamNonBlocking),
              "cudaStreamCreate");
    m_core->start();
}

NcclCommunicator::NcclCommunicator(std::shared_ptr<Core> core, NcclReduce reduce, MPI_Comm mpi,
                                   ncclComm_t nccl, MemberHosts members)
    : m_core(std::move(core)), m_mpi(mpi), m_nccl(nccl), m_reduce(reduce), m_device(m_core->device),
      m_host(m_core->host), m_members(std::move(members)) {
    checkMpi(MPI_Comm_set_errhandler(m_mpi, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    checkMpi(MPI_Comm_rank(m_mpi, &m_rank), "MPI_Comm_rank");
    checkMpi(MPI_Comm_size(m_mpi, &m_size), "MPI_Comm_size");
    int ncclRank = -1, ncclSize = 0;
    checkNccl(ncclCommUserRank(m_nccl, &ncclRank), "ncclCommUserRank");
    checkNccl(ncclCommCount(m_nccl, &ncclSize), "ncclCommCount");
    if (ncclRank != m_rank || ncclSize != m_size || m_members.size() != m_size)
        throw CommError(who() + ": the NCCL group (rank " + std::to_string(ncclRank) + " of " +
                        std::to_string(ncclSize) + ") is not the MPI one (rank " +
                        std::to_string(m_rank) + " of " + std::to_string(m_size) + ")");
    m_core->addComm(m_nccl, "a group communicator (member " + std::to_string(m_rank) + " of " +
                                std::to_string(m_size) + ")");
}

NcclCommunicator::~NcclCommunicator() {
    // The world's completion thread finishes what is queued (its groups' collectives too).
    if (m_owner)
        m_core->stop();
    // Destructors cannot throw; a failure here was reported by the call that caused it.
    // The stream is shared: a group's collectives are done once it has drained.
    cudaStreamSynchronize(m_core->stream);
    // An aborted communicator is freed by its abort.
    if (m_core->removeComm(m_nccl))
        ncclCommDestroy(m_nccl);
    MPI_Comm_free(&m_mpi);
}

std::vector<std::string> NcclCommunicator::asyncErrors() {
    std::vector<std::string> errors = m_core->asyncErrors();
    for (std::string& e : errors)
        e = m_core->who + ", " + e;
    return errors;
}

void NcclCommunicator::abortCollectives() {
    m_core->abortAll();
}

void NcclCommunicator::setComputeStream(cudaStream_t s) {
    m_core->compute = s;
}

void NcclCommunicator::setBeacon(CollectiveBeacon* beacon) {
    m_beacon = beacon;
    m_core->beacon = beacon;
}

template <typename Call>
std::shared_ptr<NcclCommunicator::Pending> NcclCommunicator::issue(std::optional<Collective> kind,
                                                                   long long bytes, double traffic,
                                                                   LinkTraffic link, Call call) {
    auto p = std::make_shared<Pending>();
    p->kind = kind;
    p->bytes = bytes;
    p->traffic = traffic;
    p->link = link;
    // Entered when issued, left when its stop event completes (complete()): NCCL runs on
    // the device, so the beacon counts what the stream has not finished yet.
    if (m_core->beacon)
        m_core->beacon->enter();
    p->beacon = m_core->beacon;
    const cudaStream_t stream = m_core->stream;
    checkCuda(cudaEventCreateWithFlags(&p->ready, cudaEventDisableTiming), "cudaEventCreate");
    checkCuda(cudaEventCreate(&p->start), "cudaEventCreate");
    // Blocking sync: a waiting thread sleeps instead of spinning on a core compute needs.
    checkCuda(cudaEventCreateWithFlags(&p->stop, cudaEventBlockingSync), "cudaEventCreate");
    checkCuda(cudaEventRecord(p->ready, m_core->compute), "cudaEventRecord(compute)");
    checkCuda(cudaStreamWaitEvent(stream, p->ready, 0), "cudaStreamWaitEvent");
    checkCuda(cudaEventRecord(p->start, stream), "cudaEventRecord(start)");
    call(stream);
    checkCuda(cudaEventRecord(p->stop, stream), "cudaEventRecord(stop)");
    return p;
}

template <typename Call>
std::shared_ptr<NcclCommunicator::Pending> NcclCommunicator::issueRing(Collective c,
                                                                       long long bytes, Call call) {
    const double traffic = static_cast<double>(bytes) * ringTrafficFactor(c, m_size);
    return issue(c, bytes, traffic, m_members.ring(traffic), std::move(call));
}

void NcclCommunicator::finishBlocking(std::shared_ptr<Pending> p) {
    const auto t0 = std::chrono::steady_clock::now();
    m_core->complete(*p);
    m_core->recordWait(msSince(t0));
}

CommHandle NcclCommunicator::finishLater(std::shared_ptr<Pending> p) {
    p->state = std::make_shared<CommHandle::State>();
    p->state->onWaited = [core = m_core.get()](double ms) { core->recordWait(ms); };
    CommHandle handle(p->state);
    {
        std::lock_guard lock(m_core->queueMutex);
        m_core->queue.push_back(std::move(p));
    }
    m_core->queueCv.notify_one();
    return handle;
}

std::shared_ptr<NcclCommunicator::Pending>
NcclCommunicator::allReduceOp(void* buf, std::size_t count, CommDType t) {
    refuseBytes(t, "all-reduce");
    const long long bytes = static_cast<long long>(count * commDTypeBytes(t));
    return issueRing(Collective::AllReduce, bytes, [&](cudaStream_t stream) {
        checkNccl(ncclAllReduce(buf, buf, count, ncclType(t), reduceOp(), m_nccl, stream),
                  "ncclAllReduce");
    });
}

// In place as NCCL defines it: rank r's result slice is buf + r*count.
std::shared_ptr<NcclCommunicator::Pending>
NcclCommunicator::reduceScatterOp(void* buf, std::size_t count, CommDType t) {
    refuseBytes(t, "reduce-scatter");
    const std::size_t esz = commDTypeBytes(t);
    const long long bytes = static_cast<long long>(count * esz * m_size);
    void* mine = static_cast<char*>(buf) + static_cast<std::size_t>(m_rank) * count * esz;
    return issueRing(Collective::ReduceScatter, bytes, [&](cudaStream_t stream) {
        checkNccl(ncclReduceScatter(buf, mine, count, ncclType(t), reduceOp(), m_nccl, stream),
                  "ncclReduceScatter");
    });
}

// In place as NCCL defines it: rank r sends buf + r*count.
std::shared_ptr<NcclCommunicator::Pending>
NcclCommunicator::allGatherOp(void* buf, std::size_t count, CommDType t) {
    const std::size_t esz = commDTypeBytes(t);
    const long long bytes = static_cast<long long>(count * esz * m_size);
    const void* mine = static_cast<char*>(buf) + static_cast<std::size_t>(m_rank) * count * esz;
    return issueRing(Collective::AllGather, bytes, [&](cudaStream_t stream) {
        checkNccl(ncclAllGather(mine, buf, count, ncclType(t), m_nccl, stream), "ncclAllGather");
    });
}

// One NCCL group: block j of `send` to member j, block j of `recv` from it; this rank's own
// block is a device copy on the same stream (no traffic).
std::shared_ptr<NcclCommunicator::Pending>
NcclCommunicator::allToAllOp(const void* send, void* recv, std::size_t count, CommDType t) {
    const std::size_t block = count * commDTypeBytes(t);
    const long long bytes = static_cast<long long>(block) * m_size;
    const LinkTraffic link = m_members.allToAll(static_cast<double>(block), m_rank);
    const auto* from = static_cast<const char*>(send);
    auto* to = static_cast<char*>(recv);
    return issue(std::nullopt, bytes, link.total(), link, [&](cudaStream_t stream) {
        const std::size_t me = static_cast<std::size_t>(m_rank) * block;
        checkCuda(cudaMemcpyAsync(to + me, from + me, block, cudaMemcpyDeviceToDevice, stream),
                  "cudaMemcpyAsync(all-to-all, own block)");
        checkNccl(ncclGroupStart(), "ncclGroupStart(all-to-all)");
        ncclResult_t rc = ncclSuccess;
        const char* failed = "";
        for (int j = 0; j < m_size && rc == ncclSuccess; ++j) {
            if (j == m_rank)
                continue;
            const std::size_t at = static_cast<std::size_t>(j) * block;
            rc = ncclSend(from + at, count, ncclType(t), j, m_nccl, stream);
            failed = "ncclSend(all-to-all)";
            if (rc == ncclSuccess) {
                rc = ncclRecv(to + at, count, ncclType(t), j, m_nccl, stream);
                failed = "ncclRecv(all-to-all)";
            }
        }
        // The group is closed whatever happened inside it.
        const ncclResult_t end = ncclGroupEnd();
        checkNccl(rc, failed);
        checkNccl(end, "ncclGroupEnd(all-to-all)");
    });
}

void NcclCommunicator::allReduce(void* buf, std::size_t count, CommDType t) {
    finishBlocking(allReduceOp(buf, count, t));
}

void NcclCommunicator::reduceScatter(void* buf, std::size_t count, CommDType t) {
    finishBlocking(reduceScatterOp(buf, count, t));
}

void NcclCommunicator::allGather(void* buf, std::size_t count, CommDType t) {
    finishBlocking(allGatherOp(buf, count, t));
}

void NcclCommunicator::allToAll(const void* send, void* recv, std::size_t count, CommDType t) {
    finishBlocking(allToAllOp(send, recv, count, t));
}

void NcclCommunicator::broadcast(void* buf, std::size_t count, CommDType t, int root) {
    const long long bytes = static_cast<long long>(count * commDTypeBytes(t));
    finishBlocking(issueRing(Collective::Broadcast, bytes, [&](cudaStream_t stream) {
        checkNccl(ncclBroadcast(buf, buf, count, ncclType(t), root, m_nccl, stream),
                  "ncclBroadcast");
    }));
}

CommHandle NcclCommunicator::startAllReduce(void* buf, std::size_t count, CommDType t) {
    return finishLater(allReduceOp(buf, count, t));
}

CommHandle NcclCommunicator::startReduceScatter(void* buf, std::size_t count, CommDType t) {
    return finishLater(reduceScatterOp(buf, count, t));
}

CommHandle NcclCommunicator::startAllGather(void* buf, std::size_t count, CommDType t) {
    return finishLater(allGatherOp(buf, count, t));
}

CommHandle NcclCommunicator::startAllToAll(const void* send, void* recv, std::size_t count,
                                           CommDType t) {
    return finishLater(allToAllOp(send, recv, count, t));
}

void NcclCommunicator::setRanksPerHost(int ranks_per_host) {
    if (!m_owner || !groupsDivide(ranks_per_host, m_size))
        throw CommError(who() + ": " + std::to_string(ranks_per_host) +
                        " ranks per host do not divide a world of " + std::to_string(m_size));
    m_members = MemberHosts::consecutive(m_size, ranks_per_host);
}

std::unique_ptr<Communicator> NcclCommunicator::split(CommGroup g, int P) {
    if (!m_owner || !groupsDivide(P, m_size))
        throw CommError(who() + ": groups of " + std::to_string(P) +
                        " ranks do not divide a world of " + std::to_string(m_size));
#if NCCL_VERSION_CODE < NCCL_VERSION(2, 18, 0)
    throw CommError(who() +
                    ": sub-communicators need ncclCommSplit (NCCL 2.18 or newer); this "
                    "build has NCCL " +
                    std::to_string(NCCL_MAJOR) + "." + std::to_string(NCCL_MINOR) + "." +
                    std::to_string(NCCL_PATCH));
#else
    // The same colour and key (world order) on both libraries: one group layout.
    const int color = groupColor(g, m_rank, P);
    MPI_Comm mpi = MPI_COMM_NULL;
    checkMpi(MPI_Comm_split(m_mpi, color, m_rank, &mpi), "MPI_Comm_split");
    ncclComm_t nccl = nullptr;
    const ncclResult_t rc = ncclCommSplit(m_nccl, color, m_rank, &nccl, nullptr);
    if (rc != ncclSuccess && rc != ncclInProgress) {
        MPI_Comm_free(&mpi);
        checkNccl(rc, "ncclCommSplit");
    }
    return std::unique_ptr<Communicator>(
        new NcclCommunicator(m_core, m_reduce, mpi, nccl, m_members.group(g, m_rank, P)));
#endif
}

void NcclCommunicator::sumDoubles(double* x, std::size_t n) {
    if (n > static_cast<std::size_t>(INT32_MAX))
        throw CommError(who() + ": sumDoubles of " + std::to_string(n) +
                        " values exceeds MPI's int range");
    BeaconScope counted(m_core->beacon);
    checkMpi(MPI_Allreduce(MPI_IN_PLACE, x, static_cast<int>(n), MPI_DOUBLE, MPI_SUM, m_mpi),
             "MPI_Allreduce(doubles)");
}

void NcclCommunicator::broadcastBytes(void* buf, std::size_t bytes, int root) {
    if (bytes > static_cast<std::size_t>(INT32_MAX))
        throw CommError(who() + ": broadcastBytes of " + std::to_string(bytes) +
                        " bytes exceeds MPI's int range");
    BeaconScope counted(m_core->beacon);
    checkMpi(MPI_Bcast(buf, static_cast<int>(bytes), MPI_BYTE, root, m_mpi), "MPI_Bcast(bytes)");
}

void NcclCommunicator::gatherBytes(const void* in, std::size_t bytes, void* out) {
    if (bytes > static_cast<std::size_t>(INT32_MAX))
        throw CommError(who() + ": gatherBytes of " + std::to_string(bytes) +
                        " bytes exceeds MPI's int range");
    const int n = static_cast<int>(bytes);
    BeaconScope counted(m_core->beacon);
    checkMpi(MPI_Gather(in, n, MPI_BYTE, out, n, MPI_BYTE, 0, m_mpi), "MPI_Gather");
}

void NcclCommunicator::barrier() {
    BeaconScope counted(m_core->beacon);
    checkMpi(MPI_Barrier(m_mpi), "MPI_Barrier");
}

CommStats NcclCommunicator::takeStats() {
    std::lock_guard lock(m_core->statsMutex);
    CommStats s = m_core->stats;
    m_core->stats = CommStats{};
    return s;
}

} // namespace zerolab
