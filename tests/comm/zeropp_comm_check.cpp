// An MPI program for test_zeropp_comm: ZeRO++'s communicator additions against references
// computed here: all-to-all (blocking and not, fp32 and bytes) on the world, the Within and
// Across sub-communicators for groups of 2 (when the world is even) with their collectives
// in issue order with the world's, and the traffic they count, by link class. Prints one
// line per failure and exits 1 if any; "rank R: ok" otherwise.
#include "runtime/comm/comm_mpi.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

using namespace zerolab;

int g_failures = 0;

void fail(int rank, const std::string& what) {
    std::printf("rank %d: FAILED %s\n", rank, what.c_str());
    ++g_failures;
}

// What rank `from` sends rank `to` as element i: distinct for every triple.
float sent(int from, int to, std::size_t i) {
    return static_cast<float>(from * 1000 + to * 100 + static_cast<int>(i % 97));
}

void near(int rank, const std::string& what, double got, double want) {
    if (std::fabs(got - want) > 1e-6 * std::max(1.0, std::fabs(want)))
        fail(rank, what + ": " + std::to_string(got) + " != " + std::to_string(want));
}

// All-to-all over `c`, whose member j has world rank worldOf[j].
void checkAllToAll(Communicator& c, const std::vector<int>& worldOf, std::size_t count, bool async,
                   const std::string& label) {
    const int me = worldOf[static_cast<std::size_t>(c.rank())];
    const int n = c.size();
    std::vector<float> send(count * n), recv(count * n, -1.0f);
    for (int j = 0; j < n; ++j)
        for (std::size_t i = 0; i < count; ++i)
            send[j * count + i] = sent(me, worldOf[static_cast<std::size_t>(j)], i);
    if (async)
        c.startAllToAll(send.data(), recv.data(), count, CommDType::F32).wait();
    else
        c.allToAll(send.data(), recv.data(), count, CommDType::F32);
    for (int j = 0; j < n; ++j)
        for (std::size_t i = 0; i < count; ++i)
            if (recv[j * count + i] != sent(worldOf[static_cast<std::size_t>(j)], me, i)) {
                fail(me, label + " all-to-all block " + std::to_string(j) + " element " +
                             std::to_string(i));
                return;
            }
    // Bytes: the same exchange as raw bytes.
    std::vector<unsigned char> sb(count * n), rb(count * n);
    for (std::size_t k = 0; k < sb.size(); ++k)
        sb[k] = static_cast<unsigned char>(me * 31 + k);
    c.allToAll(sb.data(), rb.data(), count, CommDType::U8);
    for (int j = 0; j < n; ++j)
        for (std::size_t i = 0; i < count; ++i) {
            const std::size_t k = c.rank() * count + i; // what member j put in our block
            if (rb[j * count + i] !=
                static_cast<unsigned char>(worldOf[static_cast<std::size_t>(j)] * 31 + k)) {
                fail(me, label + " byte all-to-all block " + std::to_string(j));
                return;
            }
        }
}

} // namespace

int main(int argc, char** argv) {
    MpiSession session(&argc, &argv);
    MpiCommunicator world;
    const int rank = world.rank(), n = world.size();
    std::vector<int> all(static_cast<std::size_t>(n));
    for (int r = 0; r < n; ++r)
        all[static_cast<std::size_t>(r)] = r;
    for (std::size_t count : {1u, 5u, 1000u})
        for (bool async : {false, true})
            checkAllToAll(world, all, count, async, "world");

    // Counting on one host: everything within.
    world.takeStats();
    world.allToAll(std::vector<float>(4 * n).data(), std::vector<float>(4 * n).data(), 4,
                   CommDType::F32);
    CommStats st = world.takeStats();
    near(rank, "one host: all-to-all traffic", st.alltoall.traffic, 16.0 * (n - 1));
    near(rank, "one host: across", st.link.across, 0);
    near(rank, "one host: within", st.link.within, 16.0 * (n - 1));

    if (n % 2 == 0) {
        const int P = 2, hosts = n / P;
        world.setRanksPerHost(P);
        auto within = world.split(CommGroup::Within, P);
        auto across = world.split(CommGroup::Across, P);
        std::vector<int> wMembers, aMembers;
        for (int r = 0; r < n; ++r) {
            if (r / P == rank / P)
                wMembers.push_back(r);
            if (r % P == rank % P)
                aMembers.push_back(r);
        }
        if (within->size() != P || across->size() != hosts || within->rank() != rank % P ||
            across->rank() != rank / P)
            fail(rank, "sub-communicator sizes or ranks");
        checkAllToAll(*within, wMembers, 7, false, "within");
        checkAllToAll(*across, aMembers, 7, true, "across");

        // Issue order across communicators: a world all-gather in flight, then a group one.
        std::vector<float> g(4 * n), h(4 * P);
        for (int k = 0; k < 4; ++k) {
            g[rank * 4 + k] = static_cast<float>(rank * 10 + k);
            h[within->rank() * 4 + k] = static_cast<float>(rank * 10 + k);
        }
        world.takeStats();
        CommHandle pending = world.startAllGather(g.data(), 4, CommDType::F32);
        within->allGather(h.data(), 4, CommDType::F32);
        pending.wait();
        for (int r = 0; r < n; ++r)
            if (g[r * 4 + 3] != static_cast<float>(r * 10 + 3))
                fail(rank, "world all-gather beside a group one");
        for (int j = 0; j < P; ++j)
            if (h[j * 4 + 3] != static_cast<float>(wMembers[static_cast<std::size_t>(j)] * 10 + 3))
                fail(rank, "group all-gather");
        st = world.takeStats();
        // World ring over n ranks on n/P hosts: a fraction hosts/n of it across; the group's
        // ring stays on its host.
        const double worldT = 16.0 * n * (n - 1) / n, groupT = 16.0 * P * (P - 1) / P;
        near(rank, "all-gather traffic", st[Collective::AllGather].traffic, worldT + groupT);
        near(rank, "all-gather across", st.link.across,
             hosts > 1 ? worldT * hosts / static_cast<double>(n) : 0);
        near(rank, "all-gather within", st.link.within,
             worldT + groupT - (hosts > 1 ? worldT * hosts / static_cast<double>(n) : 0));

        // All-to-all on the world: to P-1 peers on this host, n-P on others, 16 bytes each.
        world.allToAll(std::vector<float>(4 * n).data(), std::vector<float>(4 * n).data(), 4,
                       CommDType::F32);
        st = world.takeStats();
        near(rank, "all-to-all within", st.link.within, 16.0 * (P - 1));
        near(rank, "all-to-all across", st.link.across, 16.0 * (n - P));
        near(rank, "all-to-all bytes", static_cast<double>(st.alltoall.bytes), 16.0 * n);
    }
    if (g_failures == 0)
        std::printf("rank %d: ok\n", rank);
    return g_failures == 0 ? 0 : 1;
}
