// ZeRO++'s communicator additions against references computed here, for any Communicator
// and the memory it reads (host vectors for MPI, device copies for NCCL): all-to-all
// (blocking and not, fp32 and bytes) on the world, the Within and Across sub-communicators
// for groups of 2 (when the world is even) with their collectives in issue order with the
// world's, and the traffic they count, by link class. Run by zeropp_comm_check (MPI) and
// nccl_zeropp_check (NCCL); prints one line per failure.
#pragma once

#include "runtime/comm/communicator.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace zerolab::test {

// Buffers of the communicator under test, made from and read back to host memory; they
// live as long as this object.
class CheckMemory {
public:
    virtual ~CheckMemory() = default;
    // A buffer holding `bytes` bytes of `init`.
    virtual void* make(const void* init, std::size_t bytes) = 0;
    virtual void read(void* host, const void* buf, std::size_t bytes) = 0;

    template <typename T> void* make(const std::vector<T>& v) {
        return make(v.data(), v.size() * sizeof(T));
    }
    template <typename T> std::vector<T> read(const void* buf, std::size_t n) {
        std::vector<T> v(n);
        read(v.data(), buf, n * sizeof(T));
        return v;
    }
};

class ZeroPPChecks {
public:
    ZeroPPChecks(Communicator& world, CheckMemory& mem) : m_world(world), m_mem(mem) {}

    // Every check; returns the number of failures (each printed).
    int run() {
        const int rank = m_world.rank(), n = m_world.size();
        std::vector<int> all(static_cast<std::size_t>(n));
        for (int r = 0; r < n; ++r)
            all[static_cast<std::size_t>(r)] = r;
        for (std::size_t count : {1u, 5u, 1000u})
            for (bool async : {false, true})
                checkAllToAll(m_world, all, count, async, "world");

        // Counting on one host: everything within.
        m_world.takeStats();
        exchangeZeros(m_world, 4);
        CommStats st = m_world.takeStats();
        near("one host: all-to-all traffic", st.alltoall.traffic, 16.0 * (n - 1));
        near("one host: across", st.link.across, 0);
        near("one host: within", st.link.within, 16.0 * (n - 1));
        if (n % 2 == 0)
            checkGroups(rank, n);
        return m_failures;
    }

private:
    void fail(const std::string& what) {
        std::printf("rank %d: FAILED %s\n", m_world.rank(), what.c_str());
        ++m_failures;
    }

    void near(const std::string& what, double got, double want) {
        if (std::fabs(got - want) > 1e-6 * std::max(1.0, std::fabs(want)))
            fail(what + ": " + std::to_string(got) + " != " + std::to_string(want));
    }

    // What rank `from` sends rank `to` as element i: distinct for every triple.
    static float sent(int from, int to, std::size_t i) {
        return static_cast<float>(from * 1000 + to * 100 + static_cast<int>(i % 97));
    }

    // An all-to-all of `count` zero floats per member (for its counts only).
    void exchangeZeros(Communicator& c, std::size_t count) {
        const std::vector<float> zeros(count * static_cast<std::size_t>(c.size()));
        c.allToAll(m_mem.make(zeros), m_mem.make(zeros), count, CommDType::F32);
    }

    // All-to-all over `c`, whose member j has world rank worldOf[j].
    void checkAllToAll(Communicator& c, const std::vector<int>& worldOf, std::size_t count,
                       bool async, const std::string& label) {
        const int me = worldOf[static_cast<std::size_t>(c.rank())];
        const std::size_t n = static_cast<std::size_t>(c.size());
        std::vector<float> send(count * n);
        for (std::size_t j = 0; j < n; ++j)
            for (std::size_t i = 0; i < count; ++i)
                send[j * count + i] = sent(me, worldOf[j], i);
        void* s = m_mem.make(send);
        void* r = m_mem.make(std::vector<float>(count * n, -1.0f));
        if (async)
            c.startAllToAll(s, r, count, CommDType::F32).wait();
        else
            c.allToAll(s, r, count, CommDType::F32);
        const std::vector<float> recv = m_mem.read<float>(r, count * n);
        for (std::size_t j = 0; j < n; ++j)
            for (std::size_t i = 0; i < count; ++i)
                if (recv[j * count + i] != sent(worldOf[j], me, i)) {
                    fail(label + " all-to-all block " + std::to_string(j) + " element " +
                         std::to_string(i));
                    return;
                }
        // Bytes: the same exchange as raw bytes.
        std::vector<unsigned char> sb(count * n);
        for (std::size_t k = 0; k < sb.size(); ++k)
            sb[k] = static_cast<unsigned char>(me * 31 + k);
        void* rbuf = m_mem.make(std::vector<unsigned char>(count * n));
        c.allToAll(m_mem.make(sb), rbuf, count, CommDType::U8);
        const std::vector<unsigned char> rb = m_mem.read<unsigned char>(rbuf, count * n);
        for (std::size_t j = 0; j < n; ++j)
            for (std::size_t i = 0; i < count; ++i) {
                const std::size_t k = static_cast<std::size_t>(c.rank()) * count + i;
                if (rb[j * count + i] != static_cast<unsigned char>(worldOf[j] * 31 + k)) {
                    fail(label + " byte all-to-all block " + std::to_string(j));
                    return;
                }
            }
    }

    void checkGroups(int rank, int n) {
        const int P = 2, hosts = n / P;
        m_world.setRanksPerHost(P);
        auto within = m_world.split(CommGroup::Within, P);
        auto across = m_world.split(CommGroup::Across, P);
        std::vector<int> wMembers, aMembers;
        for (int r = 0; r < n; ++r) {
            if (r / P == rank / P)
                wMembers.push_back(r);
            if (r % P == rank % P)
                aMembers.push_back(r);
        }
        if (within->size() != P || across->size() != hosts || within->rank() != rank % P ||
            across->rank() != rank / P)
            fail("sub-communicator sizes or ranks");
        checkAllToAll(*within, wMembers, 7, false, "within");
        checkAllToAll(*across, aMembers, 7, true, "across");

        // Issue order across communicators: a world all-gather in flight, then a group one.
        std::vector<float> g(4 * n), h(4 * P);
        for (int k = 0; k < 4; ++k) {
            g[rank * 4 + k] = static_cast<float>(rank * 10 + k);
            h[within->rank() * 4 + k] = static_cast<float>(rank * 10 + k);
        }
        void* gb = m_mem.make(g);
        void* hb = m_mem.make(h);
        m_world.takeStats();
        CommHandle pending = m_world.startAllGather(gb, 4, CommDType::F32);
        within->allGather(hb, 4, CommDType::F32);
        pending.wait();
        g = m_mem.read<float>(gb, g.size());
        h = m_mem.read<float>(hb, h.size());
        for (int r = 0; r < n; ++r)
            if (g[r * 4 + 3] != static_cast<float>(r * 10 + 3))
                fail("world all-gather beside a group one");
        for (int j = 0; j < P; ++j)
            if (h[j * 4 + 3] != static_cast<float>(wMembers[static_cast<std::size_t>(j)] * 10 + 3))
                fail("group all-gather");
        CommStats st = m_world.takeStats();
        // World ring over n ranks on n/P hosts: a fraction hosts/n of it across; the group's
        // ring stays on its host.
        const double worldT = 16.0 * n * (n - 1) / n, groupT = 16.0 * P * (P - 1) / P;
        const double worldAcross = hosts > 1 ? worldT * hosts / static_cast<double>(n) : 0;
        near("all-gather traffic", st[Collective::AllGather].traffic, worldT + groupT);
        near("all-gather across", st.link.across, worldAcross);
        near("all-gather within", st.link.within, worldT + groupT - worldAcross);

        // All-to-all on the world: to P-1 peers on this host, n-P on others, 16 bytes each.
        exchangeZeros(m_world, 4);
        st = m_world.takeStats();
        near("all-to-all within", st.link.within, 16.0 * (P - 1));
        near("all-to-all across", st.link.across, 16.0 * (n - P));
        near("all-to-all bytes", static_cast<double>(st.alltoall.bytes), 16.0 * n);
    }

    Communicator& m_world;
    CheckMemory& m_mem;
    int m_failures = 0;
};

} // namespace zerolab::test
