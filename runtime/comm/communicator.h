// The Communicator seam: the collectives the ZeRO engine needs, each blocking and
// non-blocking, each timed and counted in bytes. Implementations: MPI over host
// buffers (comm_mpi.h); NCCL comes with the CUDA backend (comm_nccl.h).
#pragma once

#include "runtime/comm/collective_beacon.h"
#include "runtime/comm/comm_trace.h"
#include "storage/comm_groups.h"
#include "storage/comm_traffic.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace zerolab {

// U8: raw bytes (ZeRO++'s quantized payloads, runtime/comm/quantize.h): moved, never summed.
enum class CommDType { F32, BF16, U8 };
inline constexpr std::size_t commDTypeBytes(CommDType t) {
    return t == CommDType::F32 ? 4 : t == CommDType::BF16 ? 2 : 1;
}

// Per-collective totals since the last reset. `bytes` follows nccl-tests: the
// size of the whole buffer (count x N for reduce-scatter and all-gather).
struct CollectiveStats {
    double ms = 0;
    long long bytes = 0;
    int calls = 0;
    // Bytes this rank sent under ring algorithms over each call's group (the world, or a
    // sub-communicator's ranks; storage/comm_traffic.h).
    double traffic = 0;
    // Bus bandwidth in GB/s (1e9) with nccl-tests' factors; 0 when nothing ran.
    double busbwGbps(Collective c, int world) const;
};

struct CommStats {
    std::array<CollectiveStats, kCollectiveCount> per{};
    // All-to-alls (ZeRO++'s gradient reduction), counted like the others; bytes: the whole
    // send buffer (nccl-tests' size).
    CollectiveStats alltoall;
    // The traffic of every collective above by link class (storage/comm_traffic.h).
    LinkTraffic link;
    // Time the calling (compute) thread spent blocked on collectives: the part of
    // the communication that overlap did not hide.
    double exposed_ms = 0;
    CollectiveStats& operator[](Collective c) { return per[static_cast<std::size_t>(c)]; }
    const CollectiveStats& operator[](Collective c) const {
        return per[static_cast<std::size_t>(c)];
    }
    CommStats& operator+=(const CommStats& o);
    // Adds one collective of `kind` (none: an all-to-all) that ran `ms`, of `bytes` (the
    // whole buffer), sending `traffic` bytes, `link` by link class.
    void count(std::optional<Collective> kind, double ms, long long bytes, double traffic,
               const LinkTraffic& link);
    double totalMs() const;
    long long totalBytes() const;
    // Traffic per kind, by link class and in total (bytes sent by this rank).
    CommTraffic traffic() const;
    // Bus bandwidth over all collectives of the interval (bus bytes / total time).
    double busbwGbps(int world) const;
};

// Thrown by every implementation; the message names the rank, the host and the call.
class CommError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A non-blocking collective in flight. wait() blocks the caller until it is
// done; a handle that is destroyed unwaited is waited for by its destructor.
class CommHandle {
public:
    struct State;
    CommHandle() = default;
    explicit CommHandle(std::shared_ptr<State> s) : m_state(std::move(s)) {}
    CommHandle(CommHandle&&) noexcept = default;
    CommHandle& operator=(CommHandle&& o) noexcept;
    ~CommHandle();
    bool valid() const { return m_state != nullptr; }
    void wait();

private:
    std::shared_ptr<State> m_state;
};

// Collectives over `size()` ranks. All ranks must call the same collectives in
// the same order. Thread contract: one compute thread calls these methods;
// implementations may run non-blocking collectives on a thread of their own.
class Communicator {
public:
    virtual ~Communicator() = default;
    virtual int rank() const = 0;
    virtual int size() const = 0;
    virtual std::string host() const = 0;

    // Blocking. Buffers are host memory of `count` elements of `t`.
    // allReduce: in place sum. reduceScatter: `buf` holds size()*count elements;
    // on return rank r's summed slice r is at buf + r*count (the other slices are
    // clobbered). allGather: rank r's slice at buf + r*count is sent, every slice
    // is filled on return. broadcast: `count` elements from `root`.
    virtual void allReduce(void* buf, std::size_t count, CommDType t) = 0;
    virtual void reduceScatter(void* buf, std::size_t count, CommDType t) = 0;
    virtual void allGather(void* buf, std::size_t count, CommDType t) = 0;
    virtual void broadcast(void* buf, std::size_t count, CommDType t, int root) = 0;

    // Non-blocking variants: the buffer must stay untouched until wait().
    virtual CommHandle startAllReduce(void* buf, std::size_t count, CommDType t) = 0;
    virtual CommHandle startReduceScatter(void* buf, std::size_t count, CommDType t) = 0;
    virtual CommHandle startAllGather(void* buf, std::size_t count, CommDType t) = 0;

    // ZeRO++'s additions; implementations without them throw CommError.
    // Hosts for counting traffic by link class: groups of `ranks_per_host` consecutive
    // ranks (it divides size()); until set, every rank is on one host. Call before split.
    virtual void setRanksPerHost(int ranks_per_host);
    // Collective over this communicator: the sub-communicator `g` for groups of P ranks
    // (CommGroup, storage/comm_groups.h).
    // Its collectives keep their place in this communicator's issue order and count into
    // this communicator's stats (and trace); it must be destroyed before this one.
    virtual std::unique_ptr<Communicator> split(CommGroup g, int P);
    // send holds size()*count elements, block j for rank j; on return recv's block j holds
    // what rank j sent to this rank (send and recv must not overlap).
    virtual void allToAll(const void* send, void* recv, std::size_t count, CommDType t);
    virtual CommHandle startAllToAll(const void* send, void* recv, std::size_t count, CommDType t);

    // Untimed helpers for bookkeeping (losses, norms, metrics), not counted in stats.
    // In place: x[i] = the sum over ranks of x[i], for i < n (one all-reduce).
    virtual void sumDoubles(double* x, std::size_t n) = 0;
    double sumDouble(double x) {
        sumDoubles(&x, 1);
        return x;
    }
    virtual void broadcastBytes(void* buf, std::size_t bytes, int root) = 0;
    // Gathers `bytes` from every rank into `out` (size()*bytes) on rank 0.
    virtual void gatherBytes(const void* in, std::size_t bytes, void* out) = 0;
    virtual void barrier() = 0;

    // Statistics since the last call, then reset.
    virtual CommStats takeStats() = 0;

    // Reports every timed collective issued from now on to `trace` (nullptr, the default:
    // none); set on the compute thread between steps. MPI (and the host-staged path,
    // through its host communicator) report; NCCL does not yet. Costs one branch per
    // collective while unset.
    virtual void setTrace(CommTrace* trace) { m_trace = trace; }
    CommTrace* trace() const { return m_trace; }

    // Counts every collective (timed or not) into `beacon` from now on (nullptr, the
    // default: none): entered when its MPI call starts, left when it returns. Set on the
    // compute thread, at the same collective on every rank, with nothing in flight.
    virtual void setBeacon(CollectiveBeacon* beacon) { m_beacon = beacon; }

    // Device-side collectives (NCCL) fail asynchronously, and a rank blocked on one waits
    // forever unless it is aborted. True where this implementation can be: its async
    // errors polled and its collectives aborted (runtime/train/comm_watch.h); MPI's
    // collectives fail in their own call, and a watch ends an MPI job by ending the process.
    virtual bool abortable() const { return false; }
    // The errors this rank's communicators (the world and its groups) report now, one
    // line each, naming the communicator; empty: none. Any thread.
    virtual std::vector<std::string> asyncErrors() { return {}; }
    // Aborts every collective of this rank's communicators (ncclCommAbort on the world and
    // its groups), so that no thread of this rank stays blocked in one and the peers' own
    // collectives fail rather than wait. Any thread; the communicator is unusable after.
    virtual void abortCollectives() {}

protected:
    CommTrace* m_trace = nullptr;
    CollectiveBeacon* m_beacon = nullptr;
};

} // namespace zerolab
