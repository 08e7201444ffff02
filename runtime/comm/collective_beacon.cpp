// Beacons in POSIX shared memory (shm_open + mmap), one page per process.
#include "runtime/comm/collective_beacon.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <new>

namespace zerolab {

namespace {

constexpr const char* kBeaconStem = "zerolab-beacon-"; // + pid, in /dev/shm

BeaconReading readPage(const BeaconPage& p) {
    BeaconReading r;
    // left before entered: a reader never sees more collectives left than entered.
    r.left = p.left.load(std::memory_order_acquire);
    r.entered = p.entered.load(std::memory_order_acquire);
    r.since_ns = p.since_ns.load(std::memory_order_relaxed);
    return r;
}

} // namespace

std::int64_t monotonicNs() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

std::string beaconName(std::int64_t pid) {
    return "/" + std::string(kBeaconStem) + std::to_string(pid);
}

int sweepStaleBeacons() {
    DIR* d = ::opendir("/dev/shm");
    if (d == nullptr)
        return 0;
    const std::string prefix = kBeaconStem;
    int removed = 0;
    while (const dirent* e = ::readdir(d)) {
        const std::string name = e->d_name;
        if (name.rfind(prefix, 0) != 0 || name.size() == prefix.size() ||
            name.size() - prefix.size() > 9 ||
            name.find_first_not_of("0123456789", prefix.size()) != std::string::npos)
            continue;
        const long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
        if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH &&
            ::shm_unlink(("/" + name).c_str()) == 0)
            ++removed;
    }
    ::closedir(d);
    return removed;
}

CollectiveBeacon::CollectiveBeacon() {
    sweepStaleBeacons();
    const std::string name = beaconName(getpid());
    const int fd = shm_open(name.c_str(), O_CREAT | O_RDWR | O_TRUNC, 0600);
    if (fd >= 0) {
        m_named = true;
        void* p = MAP_FAILED;
        if (ftruncate(fd, sizeof(BeaconPage)) == 0)
            p = mmap(nullptr, sizeof(BeaconPage), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        close(fd);
        if (p != MAP_FAILED) {
            m_page = new (p) BeaconPage;
            m_shared = true;
            return;
        }
        unpublish();
    }
    m_page = new BeaconPage;
}

CollectiveBeacon::~CollectiveBeacon() {
    unpublish();
    if (m_shared) {
        m_page->~BeaconPage();
        munmap(m_page, sizeof(BeaconPage));
    } else {
        delete m_page;
    }
}

void CollectiveBeacon::unpublish() {
    if (m_named)
        shm_unlink(beaconName(getpid()).c_str());
    m_named = false;
}

BeaconReading CollectiveBeacon::read() const {
    return readPage(*m_page);
}

std::optional<BeaconView> BeaconView::open(std::int64_t pid) {
    const int fd = shm_open(beaconName(pid).c_str(), O_RDONLY, 0);
    if (fd < 0)
        return std::nullopt;
    void* p = mmap(nullptr, sizeof(BeaconPage), PROT_READ, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED)
        return std::nullopt;
    return BeaconView(static_cast<const BeaconPage*>(p));
}

BeaconView::~BeaconView() {
    if (m_page != nullptr)
        munmap(const_cast<BeaconPage*>(m_page), sizeof(BeaconPage));
}

BeaconReading BeaconView::read() const {
    return readPage(*m_page);
}

} // namespace zerolab
