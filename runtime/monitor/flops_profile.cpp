// print_model_profile's layout (deepspeed/profiling/flops_profiler/profiler.py) over
// GPT-2's module tree: GPT2 > wte, wpe, h (ModuleList > Block > ln_1, attn, ln_2, mlp),
// ln_f, lm_head. zerolab times the whole forward, not each module: below the top module
// a latency reads "n/a".
#include "runtime/monitor/flops_profile.h"
#include "runtime/model/model_flops.h"
#include "runtime/monitor/ds_text.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace zerolab {

namespace {

// One module of the tree, its MACs and params including its children's.
struct Node {
    std::string name; // attribute name, "" for the root
    std::string kind; // class name
    double params = 0;
    double macs = 0;
    std::vector<Node> children;
};

Node buildTree(const FlopsProfileInput& in) {
    const double tokens =
        static_cast<double>(in.micro_batch) * in.seq_len * std::max(1, in.grad_accum);
    Node root{"", "GPT2", 0, 0, {}};
    Node blocks{"h", "ModuleList", 0, 0, {}};
    for (const ModuleFlops& m : moduleForwardFlops(in.shape, in.seq_len)) {
        Node leaf{std::string(m.name),
                  std::string(m.kind),
                  m.params,
                  m.forward_flops_per_token * tokens / 2,
                  {}};
        if (m.block < 0) {
            root.children.push_back(leaf);
            if (m.name == "wpe")
                root.children.push_back(Node{"h", "ModuleList", 0, 0, {}});
            continue;
        }
        if (static_cast<int>(blocks.children.size()) <= m.block)
            blocks.children.push_back(Node{std::to_string(m.block), "Block", 0, 0, {}});
        blocks.children[m.block].children.push_back(leaf);
    }
    for (Node& b : blocks.children)
        for (const Node& c : b.children) {
            b.params += c.params;
            b.macs += c.macs;
        }
    for (const Node& b : blocks.children) {
        blocks.params += b.params;
        blocks.macs += b.macs;
    }
    for (Node& c : root.children)
        if (c.name == "h")
            c = blocks;
    for (const Node& c : root.children) {
        root.params += c.params;
        root.macs += c.macs;
    }
    return root;
}

std::string line(const std::string& label, const std::string& value) {
    return padRight(label, 70) + "  " + padRight(value, 8) + "\n";
}

std::string percent(double part, double total) {
    return pyG(total > 0 ? pyRound(100 * part / total, 2) : 0);
}

std::string seconds(double s) {
    return dsNumber(s) + "s";
}

// The module's extra_repr: params, MACs, latency, FLOPS (latency only for the root).
std::string repr(const Node& n, const Node& root, double fwd_s, bool is_root) {
    std::string s = dsParams(n.params) + " = " + percent(n.params, root.params) + "% Params, " +
                    dsNumber(n.macs) + "MACs = " + percent(n.macs, root.macs) + "% MACs, ";
    if (is_root)
        s += seconds(fwd_s) + " = 100% latency, " +
             dsNumber(fwd_s > 0 ? pyRound(2 * n.macs / fwd_s, 2) : 0) + "FLOPS";
    else
        s += "n/a latency, n/a FLOPS";
    return s;
}

void printTree(const Node& n, const Node& root, double fwd_s, int indent, std::string& out) {
    const std::string pad(indent, ' ');
    const std::string head = n.name.empty() ? "" : "(" + n.name + "): ";
    const bool is_root = &n == &root;
    if (n.children.empty()) {
        out += pad + head + n.kind + "(" + repr(n, root, fwd_s, is_root) + ")\n";
        return;
    }
    out += pad + head + n.kind + "(\n";
    out += pad + "  " + repr(n, root, fwd_s, is_root) + "\n";
    for (const Node& c : n.children)
        printTree(c, root, fwd_s, indent + 2, out);
    out += pad + ")\n";
}

struct Aggregate {
    std::string kind;
    double macs = 0, params = 0;
    bool timed = false;
};

void walk(const Node& n, int depth, std::vector<std::vector<Aggregate>>& info) {
    if (static_cast<int>(info.size()) <= depth)
        info.resize(depth + 1);
    auto it = std::find_if(info[depth].begin(), info[depth].end(),
                           [&](const Aggregate& a) { return a.kind == n.kind; });
    if (it == info[depth].end()) {
        info[depth].push_back({n.kind, 0, 0, depth == 0});
        it = info[depth].end() - 1;
    }
    it->macs += n.macs;
    it->params += n.params;
    for (const Node& c : n.children)
        walk(c, depth + 1, info);
}

// Python's repr of a {str: str} dict of the top `top` entries by `key`, descending.
template <class Key, class Text>
std::string topDict(std::vector<Aggregate> items, int top, Key key, Text text) {
    std::stable_sort(items.begin(), items.end(),
                     [&](const Aggregate& a, const Aggregate& b) { return key(a) > key(b); });
    items.resize(std::min<std::size_t>(items.size(), static_cast<std::size_t>(top)));
    std::string s = "{";
    for (std::size_t i = 0; i < items.size(); ++i)
        s += (i ? ", '" : "'") + items[i].kind + "': '" + text(items[i]) + "'";
    return s + "}";
}

} // namespace

double profiledForwardFlops(const FlopsProfileInput& in) {
    double per_token = 0;
    for (const ModuleFlops& m : moduleForwardFlops(in.shape, in.seq_len))
        per_token += m.forward_flops_per_token;
    return per_token * in.micro_batch * in.seq_len * std::max(1, in.grad_accum);
}

std::string flopsProfile(const FlopsProfileInput& in, const FlopsProfilerConfig& config) {
    const Node root = buildTree(in);
    const double flops = profiledForwardFlops(in);
    const double fwd = in.fwd_ms / 1e3, bwd = in.bwd_ms / 1e3, step = in.step_ms / 1e3;
    const double iter = fwd + bwd + step;
    auto perSecond = [](double f, double s) { return s > 0 ? f / s : 0.0; };
    std::string out =
        "\n-------------------------- DeepSpeed Flops Profiler --------------------------\n";
    out += "Profile Summary at step " + std::to_string(in.step) + ":\n";
    out += "Notations:\n"
           "data parallel size (dp_size), model parallel size(mp_size),\n"
           "number of parameters (params), number of multiply-accumulate operations(MACs),\n"
           "number of floating-point operations (flops), floating-point operations per second "
           "(FLOPS),\n"
           "fwd latency (forward propagation latency), bwd latency (backward propagation "
           "latency),\n"
           "step (weights update latency), iter latency (sum of fwd, bwd and step latency)\n\n";
    out += line("world size: ", std::to_string(in.world));
    out += line("data parallel size: ", std::to_string(in.world));
    out += line("model parallel size: ", "1");
    out += line("batch size per GPU: ", std::to_string(in.micro_batch));
    out += line("params per GPU: ", dsParams(root.params));
    out += line("params of model = params per GPU * mp_size: ", dsParams(root.params));
    out += line("fwd MACs per GPU: ", dsNumber(flops / 2) + "MACs");
    out += line("fwd flops per GPU: ", dsNumber(flops));
    out += line("fwd flops of model = fwd flops per GPU * mp_size: ", dsNumber(flops));
    out += line("fwd latency: ", seconds(fwd));
    out += line("fwd FLOPS per GPU = fwd flops per GPU / fwd latency: ",
                dsNumber(perSecond(flops, fwd)) + "FLOPS");
    out += line("bwd latency: ", seconds(bwd));
    out += line("bwd FLOPS per GPU = 2 * fwd flops per GPU / bwd latency: ",
                dsNumber(perSecond(2 * flops, bwd)) + "FLOPS");
    out += line("fwd+bwd FLOPS per GPU = 3 * fwd flops per GPU / (fwd+bwd latency): ",
                dsNumber(perSecond(3 * flops, fwd + bwd)) + "FLOPS");
    out += line("step latency: ", seconds(step));
    out += line("iter latency: ", seconds(iter));
    out += line("FLOPS per GPU = 3 * fwd flops per GPU / iter latency: ",
                dsNumber(perSecond(3 * flops, iter)) + "FLOPS");
    out += line("samples/second: ",
                pyRepr(pyRound(perSecond(double(in.micro_batch) * in.world, iter), 2)));

    out += "\n----------------------------- Aggregated Profile per GPU "
           "-----------------------------\n";
    std::vector<std::vector<Aggregate>> info;
    walk(root, 0, info);
    const int depth =
        config.module_depth == -1 ? static_cast<int>(info.size()) - 1 : config.module_depth;
    out += "Top " + std::to_string(config.top_modules) +
           " modules in terms of params, MACs or fwd latency at different model depths:\n";
    for (int d = 0; d < depth && d < static_cast<int>(info.size()); ++d) {
        const int top = config.top_modules;
        out += "depth " + std::to_string(d) + ":\n";
        out += "    params      - " +
               topDict(
                   info[d], top, [](const Aggregate& a) { return a.params; },
                   [](const Aggregate& a) { return dsParams(a.params); }) +
               "\n";
        out += "    MACs        - " +
               topDict(
                   info[d], top, [](const Aggregate& a) { return a.macs; },
                   [](const Aggregate& a) { return dsNumber(a.macs) + "MACs"; }) +
               "\n";
        out +=
            "    fwd latency - " +
            topDict(
                info[d], top, [](const Aggregate& a) { return a.timed ? 1.0 : 0.0; },
                [&](const Aggregate& a) { return a.timed ? seconds(fwd) : std::string("n/a"); }) +
            "\n";
    }
    if (config.detailed) {
        out += "\n------------------------------ Detailed Profile per GPU "
               "------------------------------\n";
        out += "Each module profile is listed after its name in the following order: \n"
               "params, percentage of total params, MACs, percentage of total MACs, fwd latency, "
               "percentage of total fwd latency, fwd FLOPS\n";
        out += "\nNote: zerolab counts model FLOPs as 6 psi + 6 L T C (runtime/model/"
               "model_flops.h): a module's MACs are half its forward FLOPs, 2 per parameter per "
               "token (attention adds 2 T C); the tied lm_head does wte's. Latency is measured "
               "for the whole forward only.\n\n";
        printTree(root, root, fwd, 0, out);
    }
    out += "------------------------------------------------------------------------------\n";
    return out;
}

} // namespace zerolab
