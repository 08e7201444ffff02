// The NCCL Communicator for device buffers: one GPU per rank, the ncclUniqueId
// shared over MPI, every collective on a communication stream of its own that
// waits (by event) for the compute stream's work, so that non-blocking
// collectives overlap the kernels issued after them; ZeRO++'s sub-communicators
// (ncclCommSplit) and all-to-all (grouped ncclSend/ncclRecv) on the same stream.
#pragma once

#include "runtime/comm/communicator.h"

#include <cuda_runtime_api.h>
#include <memory>
#include <mpi.h>
#include <nccl.h>
#include <optional>
#include <string>
#include <vector>

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
// Sub-communicators (split) share the world's communication stream, completion thread and
// statistics: their collectives keep their place in the issue order and count into the
// world's stats; their host helpers run over an MPI sub-communicator of the same ranks.
class NcclCommunicator final : public Communicator {
public:
    // MPI must be initialised (MpiSession). Chooses this rank's GPU from every rank's view
    // of its GPUs (chooseGpu, gpu_choice.h) and makes it current (throws CommError with
    // the choice's reason when ranks share a GPU: that needs the host-staged MPI path,
    // docs/gpu.md), then creates the NCCL communicator over all ranks.
    explicit NcclCommunicator(NcclReduce reduce = NcclReduce::Sum);
    ~NcclCommunicator() override;
    NcclCommunicator(const NcclCommunicator&) = delete;
    NcclCommunicator& operator=(const NcclCommunicator&) = delete;

    int rank() const override { return m_rank; }
    int size() const override { return m_size; }
    std::string host() const override { return m_host; }
    // The CUDA device this rank uses (its own numbering); create the CUDA kernels on it.
    int device() const { return m_device; }
    // The stream whose work each collective waits for (CudaKernels::stream()); until set,
    // the legacy default stream. Set on the world: its sub-communicators follow it.
    void setComputeStream(cudaStream_t s);

    void allReduce(void* buf, std::size_t count, CommDType t) override;
    void reduceScatter(void* buf, std::size_t count, CommDType t) override;
    void allGather(void* buf, std::size_t count, CommDType t) override;
    void broadcast(void* buf, std::size_t count, CommDType t, int root) override;
    CommHandle startAllReduce(void* buf, std::size_t count, CommDType t) override;
    CommHandle startReduceScatter(void* buf, std::size_t count, CommDType t) override;
    CommHandle startAllGather(void* buf, std::size_t count, CommDType t) override;

    // ZeRO++ (communicator.h): link classes as the MPI communicator counts them
    // (storage/comm_groups.h); split by ncclCommSplit (NCCL >= 2.18, older NCCL throws
    // CommError naming its version), called with no collective in flight, as the engine
    // does at its start (NCCL may synchronise the device while it builds a communicator);
    // all-to-all as one NCCL group of a send and a receive per peer. Byte payloads
    // (CommDType::U8: int8 and packed int4 blocks with their scales) move as ncclUint8 and
    // are never summed.
    void setRanksPerHost(int ranks_per_host) override;
    std::unique_ptr<Communicator> split(CommGroup g, int P) override;
    void allToAll(const void* send, void* recv, std::size_t count, CommDType t) override;
    CommHandle startAllToAll(const void* send, void* recv, std::size_t count, CommDType t) override;

    void sumDoubles(double* x, std::size_t n) override;
    void broadcastBytes(void* buf, std::size_t bytes, int root) override;
    void gatherBytes(const void* in, std::size_t bytes, void* out) override;
    void barrier() override;

    CommStats takeStats() override;
    void setBeacon(CollectiveBeacon* beacon) override;

    // ncclCommGetAsyncError of the world and every group split from it, and ncclCommAbort
    // of them all (runtime/train/comm_watch.h polls and aborts from its own thread).
    bool abortable() const override { return true; }
    std::vector<std::string> asyncErrors() override;
    void abortCollectives() override;

private:
    // One collective in flight: its events, counts and, when non-blocking, its handle's state.
    struct Pending;
    // What the world and its sub-communicators share: the communication stream, the
    // completion thread and the statistics (comm_nccl.cpp).
    struct Core;

    // A sub-communicator of the world over `mpi` and `nccl`; members: the host of each member.
    NcclCommunicator(std::shared_ptr<Core> core, NcclReduce reduce, MPI_Comm mpi, ncclComm_t nccl,
                     MemberHosts members);
    // Records the ordering event, enqueues `call` between the timing events on the
    // communication stream and returns the pending collective. kind: the ring collective it
    // is, none: an all-to-all; traffic: the bytes it sends, link: by link class.
    template <typename Call>
    std::shared_ptr<Pending> issue(std::optional<Collective> kind, long long bytes, double traffic,
                                   LinkTraffic link, Call call);
    // A ring collective: its traffic (ringTrafficFactor) by link class over the members.
    template <typename Call>
    std::shared_ptr<Pending> issueRing(Collective c, long long bytes, Call call);
    std::shared_ptr<Pending> allReduceOp(void* buf, std::size_t count, CommDType t);
    std::shared_ptr<Pending> reduceScatterOp(void* buf, std::size_t count, CommDType t);
    std::shared_ptr<Pending> allGatherOp(void* buf, std::size_t count, CommDType t);
    std::shared_ptr<Pending> allToAllOp(const void* send, void* recv, std::size_t count,
                                        CommDType t);
    // Blocking: waits for p on the calling thread (exposed time).
    void finishBlocking(std::shared_ptr<Pending> p);
    // Non-blocking: hands p to the completion thread; its handle's wait() is exposed time.
    CommHandle finishLater(std::shared_ptr<Pending> p);
    ncclRedOp_t reduceOp() const { return m_reduce == NcclReduce::Sum ? ncclSum : ncclAvg; }
    void refuseBytes(CommDType t, const char* what) const;
    void checkNccl(ncclResult_t rc, const char* what) const;
    void checkCuda(cudaError_t rc, const char* what) const;
    void checkMpi(int rc, const char* what) const;
    std::string who() const;

    std::shared_ptr<Core> m_core;
    bool m_owner = false; // the world communicator: owns the core's stream and thread
    MPI_Comm m_mpi = MPI_COMM_NULL;
    ncclComm_t m_nccl = nullptr;
    NcclReduce m_reduce;
    int m_rank = 0;
    int m_size = 1;
    int m_device = 0;
    std::string m_host;
    // Host (link class) of each member: what counts each collective's traffic.
    MemberHosts m_members = MemberHosts::oneHost(1);
};

} // namespace zerolab
