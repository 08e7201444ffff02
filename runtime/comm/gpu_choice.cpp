// The GPU choice from every rank's view, and the view's text form for the exchange.
#include "runtime/comm/gpu_choice.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

namespace zerolab {

namespace {

std::string trimmed(std::string_view s) {
    const auto b = s.find_first_not_of(" \t");
    if (b == std::string_view::npos)
        return {};
    const auto e = s.find_last_not_of(" \t");
    return std::string(s.substr(b, e - b + 1));
}

// Entry `i` of a CUDA_VISIBLE_DEVICES list ("2,3" or "GPU-8c6b...,GPU-1f0a..."), or empty.
std::string visibleEntry(const std::string& list, int i) {
    std::istringstream in(list);
    std::string item;
    for (int k = 0; std::getline(in, item, ','); ++k)
        if (k == i)
            return trimmed(item);
    return {};
}

// The physical GPU behind device `d` of rank view `g`, unique across the job.
std::string physicalGpu(const RankGpus& g, int d) {
    const std::string& id = g.device_ids[static_cast<std::size_t>(d)];
    // A UUID is unique everywhere; a PCI bus id only on its host: the host goes first.
    if (!id.empty())
        return g.host + " " + id;
    if (g.cuda_visible_devices) {
        const std::string entry = visibleEntry(*g.cuda_visible_devices, d);
        if (!entry.empty())
            return g.host + " CUDA_VISIBLE_DEVICES entry " + entry;
    }
    return g.host + " device " + std::to_string(d);
}

std::string rankList(const std::vector<int>& ranks) {
    std::string s;
    for (std::size_t i = 0; i < ranks.size(); ++i)
        s += (i == 0 ? "" : i + 1 == ranks.size() ? " and " : ", ") + std::to_string(ranks[i]);
    return s;
}

} // namespace

GpuChoice chooseGpu(const std::vector<RankGpus>& all, int rank) {
    const int world = static_cast<int>(all.size());
    if (rank < 0 || rank >= world)
        throw std::invalid_argument("chooseGpu: rank " + std::to_string(rank) + " is not one of " +
                                    std::to_string(world));
    // Every rank's device and physical GPU: local rank i of a host takes device i mod the
    // devices it sees (round robin where ranks outnumber them).
    std::vector<int> device(world);
    std::vector<std::string> gpu(world);
    std::map<std::string, std::vector<int>> ranksOf; // physical GPU -> its ranks
    bool perRankVisible = false;
    for (int r = 0; r < world; ++r) {
        const RankGpus& g = all[static_cast<std::size_t>(r)];
        if (g.devices() < 1)
            throw std::invalid_argument("chooseGpu: rank " + std::to_string(r) + " on " + g.host +
                                        " sees no CUDA device");
        int local = 0;
        for (int q = 0; q < r; ++q)
            local += all[static_cast<std::size_t>(q)].host == g.host;
        device[r] = local % g.devices();
        gpu[r] = physicalGpu(g, device[r]);
        ranksOf[gpu[r]].push_back(r);
        perRankVisible =
            perRankVisible || g.cuda_visible_devices != all.front().cuda_visible_devices;
    }
    GpuChoice c;
    c.device = device[rank];
    c.gpu = gpu[rank];
    c.ranks_on_device = static_cast<int>(ranksOf[c.gpu].size());
    // The first GPU in rank order that several ranks share decides the verdict's text.
    const std::vector<int>* shared = nullptr;
    for (int r = 0; r < world && shared == nullptr; ++r)
        if (ranksOf[gpu[r]].size() > 1)
            shared = &ranksOf[gpu[r]];
    c.nccl = shared == nullptr;
    if (c.nccl) {
        c.reason = world == 1 ? "one rank, on " + c.gpu
                              : "each of the " + std::to_string(world) +
                                    " ranks has a GPU of its own (told apart by UUID or PCI id" +
                                    (perRankVisible ? ", through each rank's own "
                                                      "CUDA_VISIBLE_DEVICES)"
                                                    : ")");
    } else {
        c.reason = "ranks " + rankList(*shared) + " share the GPU " + gpu[shared->front()] +
                   "; NCCL takes one GPU per rank, so the job's collectives go through MPI "
                   "staged in host memory";
    }
    return c;
}

std::string encodeRankGpus(const RankGpus& g) {
    auto line = [](const std::string& key, const std::string& value) {
        if (value.find('\n') != std::string::npos)
            throw std::invalid_argument("encodeRankGpus: " + key + " holds a line break: " + value);
        return key + "=" + value + "\n";
    };
    std::string s = line("host", g.host);
    s += g.cuda_visible_devices ? line("cuda_visible_devices", *g.cuda_visible_devices)
                                : std::string("cuda_visible_devices unset\n");
    for (const std::string& id : g.device_ids)
        s += line("device", id);
    if (s.size() >= kRankGpusBytes)
        throw std::invalid_argument("encodeRankGpus: " + std::to_string(s.size()) +
                                    " bytes for host " + g.host + " (at most " +
                                    std::to_string(kRankGpusBytes - 1) + ")");
    return s;
}

RankGpus decodeRankGpus(std::string_view text) {
    RankGpus g;
    bool host = false, visible = false;
    std::size_t at = 0;
    while (at < text.size() && text[at] != '\0') {
        const std::size_t end = text.find('\n', at);
        if (end == std::string_view::npos)
            throw std::invalid_argument("decodeRankGpus: an unfinished line: " +
                                        std::string(text.substr(at)));
        const std::string_view line = text.substr(at, end - at);
        at = end + 1;
        if (line == "cuda_visible_devices unset") {
            visible = true;
            continue;
        }
        const std::size_t eq = line.find('=');
        const std::string_view key = line.substr(0, eq);
        const std::string value(eq == std::string_view::npos ? "" : line.substr(eq + 1));
        if (eq != std::string_view::npos && key == "host")
            g.host = value, host = true;
        else if (eq != std::string_view::npos && key == "cuda_visible_devices")
            g.cuda_visible_devices = value, visible = true;
        else if (eq != std::string_view::npos && key == "device")
            g.device_ids.push_back(value);
        else
            throw std::invalid_argument("decodeRankGpus: an unknown line: " + std::string(line));
    }
    if (!host || !visible)
        throw std::invalid_argument(std::string("decodeRankGpus: no ") +
                                    (host ? "cuda_visible_devices" : "host") + " line");
    return g;
}

std::vector<RankGpus> exchangeRankGpus(const RankGpus& mine, int world,
                                       const AllGatherBytes& allGather) {
    std::string in = encodeRankGpus(mine);
    in.resize(kRankGpusBytes, '\0');
    std::string out(kRankGpusBytes * static_cast<std::size_t>(world), '\0');
    allGather(in.data(), out.data(), kRankGpusBytes);
    std::vector<RankGpus> all;
    for (int r = 0; r < world; ++r)
        all.push_back(decodeRankGpus(std::string_view(out).substr(
            static_cast<std::size_t>(r) * kRankGpusBytes, kRankGpusBytes)));
    return all;
}

} // namespace zerolab
