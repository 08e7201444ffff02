// NCCL collectives on a communication stream ordered after the compute stream by
// events, timed by CUDA events; bootstrap (unique id, local rank) and the untimed
// host-side helpers over MPI.
#include "runtime/comm/comm_nccl.h"

#include "runtime/comm/comm_handle_state.h"

#include <chrono>
#include <cstring>
#include <string>
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

} // namespace

struct NcclCommunicator::Pending {
    Collective collective;
    long long bytes = 0;
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

std::string NcclCommunicator::who() const {
    return "rank " + std::to_string(m_rank) + " on " + m_host + " (GPU " +
           std::to_string(m_localRank) + ")";
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
    if (rc != cudaSuccess)
        throw CommError(who() + ": " + what + " failed: " + cudaGetErrorName(rc) + " (" +
                        cudaGetErrorString(rc) + ")");
}

void NcclCommunicator::checkMpi(int rc, const char* what) const {
    if (rc == MPI_SUCCESS)
        return;
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    throw CommError(who() + ": " + what + " failed: " + std::string(msg, len));
}

NcclCommunicator::NcclCommunicator(NcclReduce reduce) : m_reduce(reduce) {
    checkMpi(MPI_Comm_dup(MPI_COMM_WORLD, &m_mpi), "MPI_Comm_dup");
    checkMpi(MPI_Comm_set_errhandler(m_mpi, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
    checkMpi(MPI_Comm_rank(m_mpi, &m_rank), "MPI_Comm_rank");
    checkMpi(MPI_Comm_size(m_mpi, &m_size), "MPI_Comm_size");
    char name[kHostNameBytes] = {};
    gethostname(name, kHostNameBytes - 1);
    m_host = name;

    // Local rank = how many lower ranks run on the same host.
    std::vector<char> names(static_cast<std::size_t>(m_size) * kHostNameBytes);
    checkMpi(MPI_Allgather(name, kHostNameBytes, MPI_CHAR, names.data(), kHostNameBytes, MPI_CHAR,
                           m_mpi),
             "MPI_Allgather(host names)");
    for (int r = 0; r < m_rank; ++r)
        if (std::strncmp(names.data() + static_cast<std::size_t>(r) * kHostNameBytes, name,
                         kHostNameBytes) == 0)
            ++m_localRank;

    int devices = 0;
    checkCuda(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
    if (m_localRank >= devices)
        throw CommError(who() + ": local rank " + std::to_string(m_localRank) + " needs GPU " +
                        std::to_string(m_localRank) + " but " + m_host + " has " +
                        std::to_string(devices) +
                        " CUDA devices; NCCL takes one GPU per rank (several ranks on one GPU "
                        "need the host-staged MPI path, docs/gpu.md)");
    checkCuda(cudaSetDevice(m_localRank), "cudaSetDevice");

    ncclUniqueId id{};
    if (m_rank == 0)
        checkNccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
    checkMpi(MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, m_mpi), "MPI_Bcast(ncclUniqueId)");
    checkNccl(ncclCommInitRank(&m_nccl, m_size, id, m_rank), "ncclCommInitRank");
    checkCuda(cudaStreamCreateWithFlags(&m_stream, cudaStreamNonBlocking), "cudaStreamCreate");
    m_completion = std::thread([this] { completionLoop(); });
}

NcclCommunicator::~NcclCommunicator() {
    {
        std::lock_guard lock(m_queueMutex);
        m_stopping = true;
    }
    m_queueCv.notify_all();
    if (m_completion.joinable())
        m_completion.join();
    // Destructors cannot throw; a failure here was reported by the call that caused it.
    cudaStreamSynchronize(m_stream);
    ncclCommDestroy(m_nccl);
    cudaStreamDestroy(m_stream);
    MPI_Comm_free(&m_mpi);
}

template <typename Call>
std::shared_ptr<NcclCommunicator::Pending> NcclCommunicator::issue(Collective c, long long bytes,
                                                                   Call call) {
    auto p = std::make_shared<Pending>();
    p->collective = c;
    p->bytes = bytes;
    // Entered when issued, left when its stop event completes (complete()): NCCL runs on
    // the device, so the beacon counts what the stream has not finished yet.
    if (m_beacon)
        m_beacon->enter();
    p->beacon = m_beacon;
    checkCuda(cudaEventCreateWithFlags(&p->ready, cudaEventDisableTiming), "cudaEventCreate");
    checkCuda(cudaEventCreate(&p->start), "cudaEventCreate");
    // Blocking sync: a waiting thread sleeps instead of spinning on a core compute needs.
    checkCuda(cudaEventCreateWithFlags(&p->stop, cudaEventBlockingSync), "cudaEventCreate");
    checkCuda(cudaEventRecord(p->ready, m_compute), "cudaEventRecord(compute)");
    checkCuda(cudaStreamWaitEvent(m_stream, p->ready, 0), "cudaStreamWaitEvent");
    checkCuda(cudaEventRecord(p->start, m_stream), "cudaEventRecord(start)");
    call();
    checkCuda(cudaEventRecord(p->stop, m_stream), "cudaEventRecord(stop)");
    return p;
}

void NcclCommunicator::complete(Pending& p) {
    const cudaError_t rc = cudaEventSynchronize(p.stop);
    if (p.beacon)
        std::exchange(p.beacon, nullptr)->leave();
    float ms = 0;
    checkCuda(rc, "cudaEventSynchronize(collective)");
    checkCuda(cudaEventElapsedTime(&ms, p.start, p.stop), "cudaEventElapsedTime");
    std::lock_guard lock(m_statsMutex);
    auto& st = m_stats[p.collective];
    st.ms += ms;
    st.bytes += p.bytes;
    st.calls += 1;
    // No link classes on NCCL yet: every byte counts as within one host.
    const double traffic = static_cast<double>(p.bytes) * ringTrafficFactor(p.collective, m_size);
    st.traffic += traffic;
    m_stats.link.within += traffic;
}

void NcclCommunicator::finishBlocking(std::shared_ptr<Pending> p) {
    const auto t0 = std::chrono::steady_clock::now();
    complete(*p);
    recordWait(msSince(t0));
}

CommHandle NcclCommunicator::finishLater(std::shared_ptr<Pending> p) {
    p->state = std::make_shared<CommHandle::State>();
    p->state->onWaited = [this](double ms) { recordWait(ms); };
    CommHandle handle(p->state);
    {
        std::lock_guard lock(m_queueMutex);
        m_queue.push_back(std::move(p));
    }
    m_queueCv.notify_one();
    return handle;
}

void NcclCommunicator::completionLoop() {
    // The CUDA runtime's current device is per thread.
    const cudaError_t deviceRc = cudaSetDevice(m_localRank);
    for (;;) {
        std::shared_ptr<Pending> p;
        {
            std::unique_lock lock(m_queueMutex);
            m_queueCv.wait(lock, [&] { return m_stopping || !m_queue.empty(); });
            if (m_queue.empty())
                return;
            p = std::move(m_queue.front());
            m_queue.pop_front();
        }
        std::exception_ptr error;
        try {
            checkCuda(deviceRc, "cudaSetDevice(completion thread)");
            complete(*p);
        } catch (...) {
            error = std::current_exception();
        }
        p->state->finish(error);
    }
}

void NcclCommunicator::recordWait(double ms) {
    std::lock_guard lock(m_statsMutex);
    m_stats.exposed_ms += ms;
}

std::shared_ptr<NcclCommunicator::Pending>
NcclCommunicator::allReduceOp(void* buf, std::size_t count, CommDType t) {
    const long long bytes = static_cast<long long>(count * commDTypeBytes(t));
    return issue(Collective::AllReduce, bytes, [&] {
        checkNccl(ncclAllReduce(buf, buf, count, ncclType(t), reduceOp(), m_nccl, m_stream),
                  "ncclAllReduce");
    });
}

// In place as NCCL defines it: rank r's result slice is buf + r*count.
std::shared_ptr<NcclCommunicator::Pending>
NcclCommunicator::reduceScatterOp(void* buf, std::size_t count, CommDType t) {
    const std::size_t esz = commDTypeBytes(t);
    const long long bytes = static_cast<long long>(count * esz * m_size);
    void* mine = static_cast<char*>(buf) + static_cast<std::size_t>(m_rank) * count * esz;
    return issue(Collective::ReduceScatter, bytes, [&] {
        checkNccl(ncclReduceScatter(buf, mine, count, ncclType(t), reduceOp(), m_nccl, m_stream),
                  "ncclReduceScatter");
    });
}

// In place as NCCL defines it: rank r sends buf + r*count.
std::shared_ptr<NcclCommunicator::Pending>
NcclCommunicator::allGatherOp(void* buf, std::size_t count, CommDType t) {
    const std::size_t esz = commDTypeBytes(t);
    const long long bytes = static_cast<long long>(count * esz * m_size);
    const void* mine = static_cast<char*>(buf) + static_cast<std::size_t>(m_rank) * count * esz;
    return issue(Collective::AllGather, bytes, [&] {
        checkNccl(ncclAllGather(mine, buf, count, ncclType(t), m_nccl, m_stream), "ncclAllGather");
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

void NcclCommunicator::broadcast(void* buf, std::size_t count, CommDType t, int root) {
    const long long bytes = static_cast<long long>(count * commDTypeBytes(t));
    finishBlocking(issue(Collective::Broadcast, bytes, [&] {
        checkNccl(ncclBroadcast(buf, buf, count, ncclType(t), root, m_nccl, m_stream),
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

void NcclCommunicator::sumDoubles(double* x, std::size_t n) {
    if (n > static_cast<std::size_t>(INT32_MAX))
        throw CommError(who() + ": sumDoubles of " + std::to_string(n) +
                        " values exceeds MPI's int range");
    BeaconScope counted(m_beacon);
    checkMpi(MPI_Allreduce(MPI_IN_PLACE, x, static_cast<int>(n), MPI_DOUBLE, MPI_SUM, m_mpi),
             "MPI_Allreduce(doubles)");
}

void NcclCommunicator::broadcastBytes(void* buf, std::size_t bytes, int root) {
    if (bytes > static_cast<std::size_t>(INT32_MAX))
        throw CommError(who() + ": broadcastBytes of " + std::to_string(bytes) +
                        " bytes exceeds MPI's int range");
    BeaconScope counted(m_beacon);
    checkMpi(MPI_Bcast(buf, static_cast<int>(bytes), MPI_BYTE, root, m_mpi), "MPI_Bcast(bytes)");
}

void NcclCommunicator::gatherBytes(const void* in, std::size_t bytes, void* out) {
    if (bytes > static_cast<std::size_t>(INT32_MAX))
        throw CommError(who() + ": gatherBytes of " + std::to_string(bytes) +
                        " bytes exceeds MPI's int range");
    const int n = static_cast<int>(bytes);
    BeaconScope counted(m_beacon);
    checkMpi(MPI_Gather(in, n, MPI_BYTE, out, n, MPI_BYTE, 0, m_mpi), "MPI_Gather");
}

void NcclCommunicator::barrier() {
    BeaconScope counted(m_beacon);
    checkMpi(MPI_Barrier(m_mpi), "MPI_Barrier");
}

CommStats NcclCommunicator::takeStats() {
    std::lock_guard lock(m_statsMutex);
    CommStats s = m_stats;
    m_stats = CommStats{};
    return s;
}

} // namespace zerolab
