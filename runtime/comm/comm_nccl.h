// The NCCL Communicator for device buffers: one GPU per rank, the ncclUniqueId
// shared over MPI, every collective on a communication stream of its own that
// waits (by event) for the compute stream's work, so that non-blocking
// collectives overlap the kernels issued after them.
#pragma once

#include "runtime/comm/communicator.h"

#include <condition_variable>
#include <cuda_runtime_api.h>
#include <deque>
#include <memory>
#include <mpi.h>
#include <mutex>
#include <nccl.h>
#include <thread>

namespace zerolab {

// What the reducing collectives (allReduce, reduceScatter) compute. Sum is the
// Communicator contract. Average (ncclAvg, NCCL >= 2.10) divides by size() inside the
// collective: an engine that would scale gradients by 1/N afterwards can fold that
// into the reduction, saving a pass over the buffer and keeping bf16 sums in range.
enum class NcclReduce { Sum, Average };

// Buffers of the collectives are DEVICE pointers on device() (Kernels::allocate of the
// CUDA kernels); the untimed helpers (sumDouble, broadcastBytes, gatherBytes, barrier)
// take host memory and run over MPI.
// Ordering: a collective starts on the GPU once all work issued so far on the compute
// stream (setComputeStream) is done. A blocking collective returns when its result is in
// `buf`; a non-blocking one when CommHandle::wait() returns, and the compute stream must
// not touch `buf` before that.
// Threads: one compute thread calls every method (and makes every MPI call: do not run
// an MpiCommunicator's progress thread at the same time, MPI is initialised
// MPI_THREAD_SERIALIZED). A completion thread of this object waits for the CUDA events of
// non-blocking collectives; it makes no MPI or NCCL call.
// Timing: each collective's ms come from CUDA events around it on the communication
// stream; exposed_ms is the compute thread's blocked time in wait() and blocking calls.
class NcclCommunicator final : public Communicator {
public:
    // MPI must be initialised (MpiSession). Finds the local rank from a hostname exchange,
    // makes device `localRank()` current (throws CommError when the host has fewer GPUs
    // than ranks: several ranks per GPU need the host-staged MPI path, docs/gpu.md), then
    // creates the NCCL communicator over all ranks.
    explicit NcclCommunicator(NcclReduce reduce = NcclReduce::Sum);
    ~NcclCommunicator() override;
    NcclCommunicator(const NcclCommunicator&) = delete;
    NcclCommunicator& operator=(const NcclCommunicator&) = delete;

    int rank() const override { return m_rank; }
    int size() const override { return m_size; }
    std::string host() const override { return m_host; }
    int localRank() const { return m_localRank; }
    // The CUDA device this rank uses (= localRank()); create the CUDA kernels on it.
    int device() const { return m_localRank; }
    // The stream whose work each collective waits for (CudaKernels::stream()); until set,
    // the legacy default stream.
    void setComputeStream(cudaStream_t s) { m_compute = s; }

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
    // One collective in flight: its events and, when non-blocking, its handle's state.
    struct Pending;

    // Records the ordering event, enqueues `call` between the timing events on the
    // communication stream and returns the pending collective.
    template <typename Call>
    std::shared_ptr<Pending> issue(Collective c, long long bytes, Call call);
    std::shared_ptr<Pending> allReduceOp(void* buf, std::size_t count, CommDType t);
    std::shared_ptr<Pending> reduceScatterOp(void* buf, std::size_t count, CommDType t);
    std::shared_ptr<Pending> allGatherOp(void* buf, std::size_t count, CommDType t);
    // Blocking: waits for p on the calling thread (exposed time).
    void finishBlocking(std::shared_ptr<Pending> p);
    // Non-blocking: hands p to the completion thread; its handle's wait() is exposed time.
    CommHandle finishLater(std::shared_ptr<Pending> p);
    // Waits for p's stop event and adds its time to the stats.
    void complete(Pending& p);
    void completionLoop();
    ncclRedOp_t reduceOp() const { return m_reduce == NcclReduce::Sum ? ncclSum : ncclAvg; }
    void checkNccl(ncclResult_t rc, const char* what) const;
    void checkCuda(cudaError_t rc, const char* what) const;
    void checkMpi(int rc, const char* what) const;
    void recordWait(double ms);
    std::string who() const;

    MPI_Comm m_mpi = MPI_COMM_NULL;
    ncclComm_t m_nccl = nullptr;
    cudaStream_t m_stream = nullptr;
    cudaStream_t m_compute = nullptr;
    NcclReduce m_reduce;
    int m_rank = 0;
    int m_size = 1;
    int m_localRank = 0;
    std::string m_host;

    std::mutex m_queueMutex;
    std::condition_variable m_queueCv;
    std::deque<std::shared_ptr<Pending>> m_queue;
    bool m_stopping = false;
    std::thread m_completion;

    std::mutex m_statsMutex;
    CommStats m_stats;
};

} // namespace zerolab
