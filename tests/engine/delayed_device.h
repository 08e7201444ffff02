// A device whose work runs later, as a GPU's does, on the CPU: a stand-in for the CUDA
// kernels' stream and the NCCL communicator's, to show on a machine without a GPU that the
// engine waits where it must and reuses no buffer a queued op or a collective still uses.
//
// - FakeStream: a worker thread that runs queued ops in issue order (a CUDA stream); an
//   event is a position in its queue.
// - DelayedKernels: the CPU kernels with every op queued on the compute stream, returning
//   at once; the ops the CUDA kernels complete before returning (ForwardingKernels'
//   Completion::Waited) drain the stream first. Fresh allocations are poisoned (cudaMalloc
//   leaves garbage); release waits for both streams (cudaFree waits for the device).
// - DelayedCommunicator: NCCL's event semantics over a host Communicator (MPI). A
//   collective is queued on the communication stream behind an event recorded on the
//   compute stream, so it starts once the compute work issued before it is done and runs
//   while later compute work proceeds. While it is in flight its whole buffer holds NaN
//   (0xff bytes), it is held for a while, and its result is written only when it
//   completes: a kernel that reads the buffer before wait() reads NaN, one that writes it
//   has its write overwritten (and a reduce-scatter leaves NaN in the slices that are not
//   the rank's, which the contract calls clobbered).
//
// Of the interleavings a GPU allows, the fake takes the one that exposes the most: the
// compute stream does not pass a collective's start before the collective has taken its
// input and poisoned the buffer, so whatever the compute stream does to the buffer between
// start and wait lands inside the collective's flight.
#pragma once

#include "runtime/comm/communicator.h"
#include "tests/engine/forwarding_kernels.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace zerolab::test {

class FakeStream {
public:
    explicit FakeStream(std::string name);
    // Runs what is queued, then ends the worker.
    ~FakeStream();
    FakeStream(const FakeStream&) = delete;
    FakeStream& operator=(const FakeStream&) = delete;

    // Queues `op` behind everything queued so far; returns at once.
    void enqueue(std::function<void()> op);
    // An event recorded now (cudaEventRecord): the number of ops queued so far.
    std::uint64_t record();
    // Blocks until the first `event` ops have run (cudaEventSynchronize; called from
    // another stream's op, cudaStreamWaitEvent).
    void waitFor(std::uint64_t event);
    // Blocks until every op queued so far has run; then rethrows the first exception an op
    // threw, if any (a CUDA error is sticky too: the stream is broken from then on).
    void synchronize();
    // Ops run so far.
    std::uint64_t ran();
    const std::string& name() const { return m_name; }

private:
    void loop();

    std::string m_name;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<std::function<void()>> m_queue;
    std::uint64_t m_queued = 0;
    std::uint64_t m_ran = 0;
    std::exception_ptr m_error;
    bool m_stopping = false;
    std::thread m_worker; // last: starts once the rest exists
};

// The two streams of one fake device and how long a collective stays in flight.
struct FakeDevice {
    explicit FakeDevice(std::chrono::microseconds hold = std::chrono::microseconds(300))
        : hold(hold) {}
    // cudaDeviceSynchronize: both streams drained.
    void synchronize() {
        compute.synchronize();
        comm.synchronize();
    }

    std::chrono::microseconds hold; // a collective's time in flight, beyond its host call
    FakeStream compute{"compute"};
    FakeStream comm{"comm"};
};

class DelayedKernels final : public ForwardingKernels {
public:
    // `device` must outlive this object.
    DelayedKernels(std::unique_ptr<Kernels> inner, FakeDevice& device);
    // Waits for the queued ops (they use the inner kernels).
    ~DelayedKernels() override;

    std::string_view name() const override { return "delayed-cpu"; }
    void* allocate(std::size_t bytes) override;
    void release(void* p) override;
    std::optional<DeviceMemory> deviceMemory() override { return std::nullopt; }
    void synchronize() override { m_device.compute.synchronize(); }

    // Ops queued on the compute stream so far (a run that queued none proves nothing).
    long long queuedOps() const { return m_queued; }

private:
    void run(Completion c, std::function<void()> op) override;

    FakeDevice& m_device;
    long long m_queued = 0;
};

class DelayedCommunicator final : public Communicator {
public:
    // Buffers are device memory of kernels on `device` (host memory underneath); `host`
    // runs the collectives, and every call of it is made from the communication stream's
    // thread, in issue order (MPI_THREAD_SERIALIZED, one caller). Both must outlive this.
    DelayedCommunicator(Communicator& host, FakeDevice& device);
    // Waits for the communication stream (its ops use this object).
    ~DelayedCommunicator() override;

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

    // Host memory, blocking, as NCCL's helpers over MPI; they take their turn on the
    // communication stream (the one thread that calls `host`).
    void sumDoubles(double* x, std::size_t n) override;
    void broadcastBytes(void* buf, std::size_t bytes, int root) override;
    void gatherBytes(const void* in, std::size_t bytes, void* out) override;
    void barrier() override;

    // The host communicator's counts and times; exposed_ms is the compute thread's time
    // blocked in wait() and in blocking calls, as NCCL measures it.
    CommStats takeStats() override;
    // The beacon counts the host calls, on the thread that makes them. Traces are kept,
    // not reported (as NCCL: the step timeline has no device collectives yet).
    void setBeacon(CollectiveBeacon* beacon) override;

    // Collectives issued so far.
    long long collectives() const { return m_collectives; }

private:
    CommHandle start(Collective c, void* buf, std::size_t count, CommDType t, int root = 0);
    // Runs `call` on the communication stream and waits for it, rethrowing what it threw.
    void onCommStream(const std::function<void()>& call);

    Communicator& m_host;
    FakeDevice& m_device;
    long long m_collectives = 0;
    double m_exposedMs = 0; // compute thread only
};

} // namespace zerolab::test
