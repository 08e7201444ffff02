// A rank's collective beacon: how many collectives it has entered and left, and since
// when it has been inside the current one, in a page of POSIX shared memory that rank 0's
// watch thread (runtime/train/rank_watch.h) reads for the ranks on its host. Why shared
// memory: a rank that is stopped (SIGSTOP), wedged in a driver call or swapped out cannot
// answer a message, but its beacon needs nothing from it: it simply stops moving.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

namespace zerolab {

// One reading of a beacon. Counts start at 0 when the beacon is set on a communicator
// (Communicator::setBeacon), at the same collective on every rank, so equal counts mean
// the same collective.
struct BeaconReading {
    std::uint64_t entered = 0; // collectives this rank has started to run
    std::uint64_t left = 0;    // ... and finished
    std::int64_t since_ns = 0; // CLOCK_MONOTONIC when the current one was entered
    bool inside() const { return entered > left; }
};

// The beacon's layout in the shared page; lock-free 64-bit atomics (one writer).
struct BeaconPage {
    std::atomic<std::uint64_t> entered{0};
    std::atomic<std::uint64_t> left{0};
    std::atomic<std::int64_t> since_ns{0};
};
static_assert(std::atomic<std::uint64_t>::is_always_lock_free &&
                  std::atomic<std::int64_t>::is_always_lock_free,
              "beacons are read by another process: their atomics must be lock-free");

// CLOCK_MONOTONIC in nanoseconds: one clock for every process of a host.
std::int64_t monotonicNs();

// This process's beacon, written by the thread that makes its collective calls. Created
// under the name beaconName(getpid()); where shared memory cannot be had, it lives in
// private memory and only this process can read it (published() is false).
class CollectiveBeacon {
public:
    CollectiveBeacon();
    ~CollectiveBeacon(); // unmaps, and removes the name if unpublish() did not
    CollectiveBeacon(const CollectiveBeacon&) = delete;
    CollectiveBeacon& operator=(const CollectiveBeacon&) = delete;

    void enter() {
        m_page->since_ns.store(monotonicNs(), std::memory_order_relaxed);
        m_page->entered.fetch_add(1, std::memory_order_release);
    }
    void leave() { m_page->left.fetch_add(1, std::memory_order_release); }
    BeaconReading read() const;
    bool published() const { return m_shared; }
    // Removes the name once the readers have mapped the page (they keep their mapping),
    // so that nothing is left in /dev/shm whatever happens to the process later.
    void unpublish();

private:
    BeaconPage* m_page = nullptr;
    bool m_shared = false;
    bool m_named = false;
};

// Counts one collective call into a beacon (none: nullptr) for the scope's lifetime.
class BeaconScope {
public:
    explicit BeaconScope(CollectiveBeacon* b) : m_beacon(b) {
        if (m_beacon)
            m_beacon->enter();
    }
    ~BeaconScope() {
        if (m_beacon)
            m_beacon->leave();
    }
    BeaconScope(const BeaconScope&) = delete;
    BeaconScope& operator=(const BeaconScope&) = delete;

private:
    CollectiveBeacon* m_beacon;
};

// The shared-memory name of process `pid`'s beacon.
std::string beaconName(std::int64_t pid);

// Removes the beacons (in /dev/shm) whose process is gone: a rank killed with SIGKILL (a
// sweep trial's timeout) cannot remove its own. Every new beacon sweeps first. Returns how
// many were removed.
int sweepStaleBeacons();

// Another process's beacon on this host, read-only; nullopt where it has none.
class BeaconView {
public:
    static std::optional<BeaconView> open(std::int64_t pid);
    BeaconView(BeaconView&& o) noexcept : m_page(o.m_page) { o.m_page = nullptr; }
    BeaconView& operator=(BeaconView&&) = delete;
    BeaconView(const BeaconView&) = delete;
    ~BeaconView();
    BeaconReading read() const;

private:
    explicit BeaconView(const BeaconPage* page) : m_page(page) {}
    const BeaconPage* m_page;
};

} // namespace zerolab
