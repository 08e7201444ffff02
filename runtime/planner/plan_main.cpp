// zerolab-plan: the analytic planner on the command line. Builds a PlanInput from
// a bare size (--params ...) or a training config (--config F --world N), prints
// the stages 0-3 table, --explain text or --json. Exit 0 ok, 2 invalid input. What it
// prints may quote a file (a profile's name, a config's key): terminal escapes are shown
// as U+FFFD (terminalText).
#include "runtime/config/config.h"
#include "runtime/config/config_choices.h"
#include "runtime/config/hf_shape.h"
#include "runtime/planner/bandwidth_units.h"
#include "runtime/planner/cluster_presets.h"
#include "runtime/planner/plan_devices.h"
#include "runtime/planner/plan_names.h"
#include "runtime/planner/plan_time.h"
#include "runtime/planner/planner.h"
#include "runtime/text/stdout_written.h"
#include "storage/stored_text.h"

#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>

using namespace zerolab;

namespace {

constexpr int kExitOk = 0;
constexpr int kExitInvalid = 2;

// What --time reads besides the device: a profile, or the links, hosts and fractions of a
// preset (cluster_presets.h).
struct TimeOptions {
    std::string profile, network, intra_link, inter_link;
    int hosts = 1;
    int gpus_per_host = 0, nics_per_node = 0;                             // 0: not given
    double matmul_fraction = 0, memory_fraction = kDefaultMemoryFraction; // 0: the preset's
};

// The options of --time, each named once: registered here, and refused without --time by
// the same list (kTimeOptionNames).
constexpr const char* kTimeOptionNames[] = {
    "--profile",         "--network",    "--intra-link",    "--hosts",        "--matmul-fraction",
    "--memory-fraction", "--inter-link", "--nics-per-node", "--gpus-per-host"};

void addTimeOptions(CLI::App& app, TimeOptions& t) {
    const std::string presets = "--time with a preset: ";
    app.add_option(kTimeOptionNames[0], t.profile,
                   "--time: a machine profile (zerolab-calibrate's JSON) instead of a preset");
    app.add_option(kTimeOptionNames[1], t.network,
                   presets + "the link between hosts: " + linkPresetKeys());
    app.add_option(kTimeOptionNames[2], t.intra_link,
                   presets + "the link within a host (default: the device's NVLink)");
    app.add_option(kTimeOptionNames[3], t.hosts,
                   "--time: hosts the world is spread over (divides it)");
    app.add_option(kTimeOptionNames[4], t.matmul_fraction,
                   presets + "the best matmul's share of the device's peak FLOP/s; smaller "
                             "shapes reach less (default: the device's measured ceiling, "
                             "0.869 A100, 0.803 H100/H200)");
    app.add_option(kTimeOptionNames[5], t.memory_fraction,
                   presets + "achievable fraction of its memory bandwidth (default 0.7)");
    app.add_option(kTimeOptionNames[6], t.inter_link,
                   "--time: the link between hosts as a rate with its unit and scope: "
                   "400Gb/s/node, 50GB/s/gpu, 400Gb/s/nic (no scope: per NIC); with --network, "
                   "its rate replaces the preset's");
    app.add_option(kTimeOptionNames[7], t.nics_per_node,
                   "--time: NICs a host has (divides its GPUs; default one per GPU, as the "
                   "presets assume)");
    app.add_option(kTimeOptionNames[8], t.gpus_per_host,
                   "--time: GPUs (ranks) a host has; with --hosts it gives --world, with "
                   "--world it gives --hosts");
}

struct Options {
    std::string config;
    std::string params; // "6.7e9", "1.3B", "350M", "124K"
    int world = 1;
    int stage = 0;
    std::string precision = "bf16";
    bool no_master = false;
    std::string grad_accum_dtype;
    std::string convention = "paper";
    std::string model;
    std::string hf_config;
    int micro = 0, seq = 0, layers = 0, hidden = 0, heads = 0, vocab = 0;
    bool checkpointing = false;
    std::string recompute;
    double activations_gb = -1;
    long long reduce_bucket = kDefaultBucketElements;
    long long allgather_bucket = kDefaultBucketElements;
    int grad_accum = 1;
    bool overlap_comm = false;
    std::string device = "a100-80";
    double capacity_gb = 0;
    double reserve_gb = -1;
    double bandwidth_gbps = 100;
    std::string bandwidth;
    std::string offload_optimizer, offload_param;
    int ranks_per_node = 0;
    std::string pcie, pcie_gbps;
    bool json = false, explain = false, gib = false;
    bool time = false;
    TimeOptions timing;
    bool world_from_hosts = false; // --hosts x --gpus-per-host gave the world
};

// Every preset's name, for --model's help and its error.
std::string presetNames() {
    std::string names;
    for (const ModelPreset& p : modelPresets())
        names += (names.empty() ? "" : ", ") + std::string(p.name);
    return names;
}

void addOptions(CLI::App& app, Options& o) {
    app.add_option("--config", o.config, "zerolab/DeepSpeed training config (JSON)");
    app.add_option("--params", o.params,
                   "parameter count psi: 6.7e9, or with K (1e3), M (1e6), B (1e9), T (1e12): "
                   "1.3B, 350M");
    app.add_option("--world", o.world, "data-parallel ranks N");
    app.add_option("--stage", o.stage, "ZeRO stage of the verdict and --explain (0-3)");
    app.add_option("--precision", o.precision,
                   "bf16 (mixed: bf16 params/grads, fp32 master, m, v) "
                   "or fp32");
    app.add_flag("--no-master", o.no_master, "bf16 without an fp32 master copy (llm.c -w 0)");
    app.add_option("--grad-accum-dtype", o.grad_accum_dtype,
                   "bf16 only: fp32 gradients (data_types.grad_accum_dtype \"fp32\"), or bf16");
    app.add_option("--convention", o.convention, "paper (ZeRO paper, default) or chapter");
    app.add_option("--model", o.model, "a model preset: " + presetNames());
    app.add_option("--hf-config", o.hf_config,
                   "a Hugging Face config.json (LlamaForCausalLM, MistralForCausalLM, "
                   "Qwen2ForCausalLM): its shape");
    app.add_option("--micro", o.micro, "micro-batch B per rank");
    app.add_option("--seq", o.seq,
                   "sequence length T (with --model or --hf-config: up to the model's context)");
    app.add_option("--layers", o.layers, "transformer layers L");
    app.add_option("--hidden", o.hidden, "hidden width C");
    app.add_option("--heads", o.heads, "attention heads H");
    app.add_option("--vocab", o.vocab, "vocabulary V (padded to a multiple of 128)");
    app.add_option("--recompute", o.recompute,
                   "activation recomputation: none, selective or full (default: the config's, "
                   "else none)");
    app.add_flag("--checkpointing", o.checkpointing, "the same as --recompute full");
    app.add_option("--activations-gb", o.activations_gb,
                   "activation bytes per rank given directly, in GB (1e9)");
    app.add_option("--reduce-bucket", o.reduce_bucket, "reduce_bucket_size in elements");
    app.add_option("--allgather-bucket", o.allgather_bucket, "allgather_bucket_size in elements");
    app.add_option("--grad-accum", o.grad_accum, "gradient_accumulation_steps");
    app.add_flag("--overlap-comm", o.overlap_comm, "overlap_comm: a second reduce-scatter slot");
    app.add_option("--device", o.device, devicePresetKeys() + " (default a100-80)");
    app.add_option("--capacity-gb", o.capacity_gb, "custom device capacity in GB (1e9)");
    app.add_option("--reserve-gb", o.reserve_gb,
                   "memory kept free of the forecast, in GB (1e9): CUDA context, NCCL, "
                   "fragmentation (default: 1 GiB + 5% on a GPU preset, 0 on --capacity-gb)");
    app.add_option("--bandwidth", o.bandwidth,
                   "bus bandwidth for comm time, with its unit: 200Gb/s, 200Gbit/s (bits per "
                   "second) or 25GB/s (bytes per second); default 100GB/s");
    app.add_option("--bandwidth-gbps", o.bandwidth_gbps,
                   "bus bandwidth in GB/s: gigaBYTES per second (for bits: --bandwidth 200Gb/s); "
                   "the unit is printed back");
    app.add_flag("--time", o.time,
                 "forecast each stage's step time, its parts and tokens/s beside the memory, "
                 "and name the fastest stage and micro-batch that fit");
    addTimeOptions(app, o.timing);
    app.add_option("--offload-optimizer", o.offload_optimizer,
                   "ZeRO-Offload of the optimizer: none, cpu or nvme (stages 1-3)");
    app.add_option("--offload-param", o.offload_param,
                   "ZeRO-Offload of the parameters: none, cpu or nvme (stage 3)");
    app.add_option("--ranks-per-node", o.ranks_per_node,
                   "ranks on one node, for the host memory per node (default: all N)");
    app.add_option("--pcie", o.pcie,
                   "host <-> device bandwidth of the offload, with its unit: 25GB/s (bytes per "
                   "second) or 200Gb/s (bits); default 25GB/s");
    app.add_option("--pcie-gbps", o.pcie_gbps,
                   "the same as --pcie, with its unit (25GB/s); a bare number is refused");
    app.add_flag("--json", o.json, "print the plan as JSON");
    app.add_flag("--explain", o.explain, "print the formulas for --stage, numbers plugged in");
    app.add_flag("--gib", o.gib, "print GiB (2^30) instead of GB (1e9)");
}

// --seq against a whole model's context (a preset's or a config.json's): PlanError naming
// the flag, the value and the context. `hf` says why for a config.json (hfContextProblem:
// its positions, or a sliding window).
void checkSeqWithin(const Options& o, const ModelShape& s, const HfModelConfig* hf,
                    const std::string& origin) {
    if (o.seq < 0)
        throw PlanError("--seq: expected a sequence length >= 1, got " + std::to_string(o.seq));
    if (hf != nullptr)
        if (const auto why = hfContextProblem(*hf, o.seq))
            throw PlanError("--seq " + std::to_string(o.seq) + ": " + renderEnglish(*why));
    if (o.seq > s.seq_len)
        throw PlanError("--seq " + std::to_string(o.seq) + " exceeds the maximum context " +
                        std::to_string(s.seq_len) + " of " + origin);
}

// The --layers/--hidden/--heads/--vocab/--seq shape, a --model preset or the shape of a
// --hf-config file.
std::optional<ModelShape> shapeFromOptions(const Options& o) {
    const int given = (o.layers > 0) + (o.hidden > 0) + (o.heads > 0) + (o.vocab > 0);
    if (!o.model.empty() || !o.hf_config.empty()) {
        const char* flag = o.model.empty() ? "--hf-config" : "--model";
        if (!o.model.empty() && !o.hf_config.empty())
            throw PlanError("--model and --hf-config exclude each other: each gives the whole "
                            "shape");
        if (given > 0)
            throw PlanError(std::string(flag) +
                            " gives the whole shape; --layers, --hidden, --heads and --vocab "
                            "exclude it");
        if (!o.model.empty()) {
            auto s = findModelPreset(o.model);
            if (!s)
                throw PlanError("--model: unknown preset '" + o.model + "' (" + presetNames() +
                                ")");
            checkSeqWithin(o, *s, nullptr, "preset '" + o.model + "'");
            return s;
        }
        try {
            const HfModelConfig hf = readHfConfig(o.hf_config);
            const ModelShape s = hfModelShape(hf);
            checkSeqWithin(o, s, &hf, o.hf_config);
            return s;
        } catch (const HfConfigError& e) {
            throw PlanError(std::string("--hf-config: ") + e.what());
        }
    }
    if (given == 0)
        return std::nullopt;
    if (given < 4 || o.seq < 1)
        throw PlanError("--layers, --hidden, --heads, --vocab and --seq describe a shape "
                        "together; give all five");
    if (o.vocab > kMaxVocab)
        throw PlanError("--vocab: at most " + std::to_string(kMaxVocab) +
                        " (padded to a multiple of 128 within an int), got " +
                        std::to_string(o.vocab));
    return ModelShape{o.layers, o.heads, o.hidden, o.seq, o.vocab, padVocab(o.vocab)};
}

// Fills in from a training config; returns false after printing its errors.
bool applyConfig(const Options& o, const CLI::App& app, PlanInput& in) {
    const ConfigResult r = loadConfigFile(o.config, app.count("--world") || o.world_from_hosts
                                                        ? std::optional<int>(o.world)
                                                        : std::nullopt);
    for (const ConfigDiagnostic& d : r.diagnostics)
        std::cerr << terminalText(formatDiagnostic(o.config, d)) << "\n";
    if (!r.ok())
        return false;
    in = planInputFromConfig(*r.config);
    if (app.count("--stage"))
        in.stage = o.stage;
    in.overlap_comm = in.overlap_comm || o.overlap_comm;
    return true;
}

// The value an option's text names in `table`; any other text throws PlanError listing
// the table's names.
template <typename E, std::size_t N>
E optionNamed(const char* option, const std::string& text, const NameTable<E, N>& table) {
    if (const auto v = valueNamed(table, text))
        return *v;
    throw PlanError(std::string(option) + ": expected " + nameList(table, "") + ", got '" + text +
                    "'");
}

// "1.3B" -> 1.3e9, "350M", "124K", "2T", "6.7e9" or "124475904"; PlanError otherwise.
double parseCount(const std::string& text) {
    std::string number = text;
    double scale = 1;
    if (!number.empty()) {
        switch (number.back()) {
        case 'K':
        case 'k':
            scale = 1e3;
            break;
        case 'M':
        case 'm':
            scale = 1e6;
            break;
        case 'B':
        case 'b':
            scale = 1e9;
            break;
        case 'T':
        case 't':
            scale = 1e12;
            break;
        default:
            break;
        }
        if (scale != 1)
            number.pop_back();
    }
    char* end = nullptr;
    const double v = number.empty() ? NAN : std::strtod(number.c_str(), &end);
    if (number.empty() || end != number.c_str() + number.size() || !std::isfinite(v))
        throw PlanError("--params: expected a parameter count such as 6.7e9, 1.3B, 350M or 124K, "
                        "got '" +
                        text + "'");
    if (v * scale > static_cast<double>(kMaxParamCount))
        throw PlanError("--params: at most 2^48 = " + std::to_string(kMaxParamCount) +
                        " parameters (more than any machine holds, the bound of a model shape), "
                        "got '" +
                        text + "'");
    return v * scale;
}

// The bytes of `gb` GB (1e9) given to `flag`: PlanError naming the flag and its text unless
// it is a finite number from `least` (excluded where least_excluded) to kMaxGb.
long long gbBytes(const char* flag, double gb, bool least_excluded) {
    constexpr double kMaxGb = 4e9; // 4e18 bytes: within a long long, beyond any machine
    if (!std::isfinite(gb) || gb < 0 || (least_excluded && gb == 0) || gb > kMaxGb) {
        std::ostringstream text;
        text << gb;
        throw PlanError(std::string(flag) + ": expected a number of GB " +
                        (least_excluded ? "above 0" : "from 0") + " up to 4e9, got " + text.str());
    }
    return std::llround(gb * 1e9);
}

PlanInput inputFromOptions(const Options& o) {
    PlanInput in;
    in.params = o.params.empty() ? 0 : parseCount(o.params);
    in.world = o.world;
    in.stage = o.stage;
    in.precision = optionNamed("--precision", o.precision, kPrecisionNames);
    in.master_weights = !o.no_master;
    if (!o.grad_accum_dtype.empty()) {
        const GradAccumDtype dtype =
            optionNamed("--grad-accum-dtype", o.grad_accum_dtype, kGradAccumDtypeNames);
        if (const auto refusal = gradAccumDtypeRefusal(dtype, in.precision, "--precision bf16"))
            throw PlanError("--grad-accum-dtype " + o.grad_accum_dtype + ": " +
                            renderEnglish(*refusal));
        in.grad_accum_fp32 = gradAccumFp32(dtype, in.precision);
    }
    in.shape = shapeFromOptions(o);
    in.micro_batch = o.micro;
    // A shape without --micro: activations at micro-batch 1 and the shape's T, said on
    // stderr, rather than "unknown".
    if (in.shape && o.micro == 0 && o.activations_gb < 0) {
        in.micro_batch = 1;
        std::cerr << "zerolab-plan: no --micro given: activations at micro-batch 1, T = "
                  << (o.seq > 0 ? o.seq : in.shape->seq_len) << " (--micro B, --seq T to change)"
                  << (o.time ? "; --time tries every micro-batch that fits" : "") << "\n";
    }
    in.seq_len = o.seq;
    in.reduce_bucket_elements = o.reduce_bucket;
    in.allgather_bucket_elements = o.allgather_bucket;
    in.grad_accumulation = o.grad_accum;
    in.overlap_comm = o.overlap_comm;
    return in;
}

// Options that apply to both a bare size and a config.
void applyCommon(const Options& o, const CLI::App& app, PlanInput& in) {
    in.convention = optionNamed("--convention", o.convention, kConventionNames);
    if (o.checkpointing && app.count("--recompute") && o.recompute != "full")
        throw PlanError("--checkpointing means --recompute full; got --recompute '" + o.recompute +
                        "' too");
    if (o.checkpointing)
        in.recompute = Recompute::Full;
    if (app.count("--recompute")) {
        const auto r = recomputeFromName(o.recompute);
        if (!r)
            throw PlanError("--recompute: expected none, selective or full, got '" + o.recompute +
                            "'");
        in.recompute = *r;
    }
    if (app.count("--activations-gb")) {
        in.activation_bytes = gbBytes("--activations-gb", o.activations_gb, false);
    }
    if (app.count("--bandwidth") && app.count("--bandwidth-gbps"))
        throw PlanError("--bandwidth and --bandwidth-gbps exclude each other");
    if (app.count("--bandwidth")) {
        in.bandwidth_gbps = parseBandwidth(o.bandwidth, "--bandwidth") / 1e9;
    } else {
        in.bandwidth_gbps = o.bandwidth_gbps;
        if (app.count("--bandwidth-gbps"))
            std::cerr << "zerolab-plan: --bandwidth-gbps " << o.bandwidth_gbps << " read as "
                      << formatBandwidth(o.bandwidth_gbps * 1e9)
                      << " (bytes; for bits per second write --bandwidth " << o.bandwidth_gbps
                      << "Gb/s)\n";
    }
    if (app.count("--offload-optimizer"))
        in.offload_optimizer =
            optionNamed("--offload-optimizer", o.offload_optimizer, kOffloadDeviceNames);
    if (app.count("--offload-param"))
        in.offload_param = optionNamed("--offload-param", o.offload_param, kOffloadDeviceNames);
    in.ranks_per_node = o.ranks_per_node;
    if (app.count("--pcie") && app.count("--pcie-gbps"))
        throw PlanError("--pcie and --pcie-gbps exclude each other");
    if (app.count("--pcie"))
        in.pcie_gbps = parseBandwidth(o.pcie, "--pcie") / 1e9;
    else if (app.count("--pcie-gbps"))
        in.pcie_gbps = parseBandwidth(o.pcie_gbps, "--pcie-gbps") / 1e9;
    if (app.count("--capacity-gb")) {
        if (app.count("--device"))
            throw PlanError("--device and --capacity-gb exclude each other");
        in.device = customDevice(gbBytes("--capacity-gb", o.capacity_gb, true));
    } else {
        auto d = findDevice(o.device);
        if (!d)
            throw PlanError("--device: unknown device '" + o.device + "' (" + devicePresetKeys() +
                            ")");
        in.device = *d;
    }
    if (app.count("--reserve-gb")) {
        in.device.reserve_bytes = gbBytes("--reserve-gb", o.reserve_gb, false);
    }
}

// A bare size planned with --time gets the shape the step-time model assumes, so that
// memory (activations) and time describe the same model.
PlanInput withAssumedShape(PlanInput in) {
    in.shape = assumedShape(in.params);
    if (in.micro_batch < 1)
        in.micro_batch = 1;
    return in;
}

// With --profile and neither --device nor --capacity-gb, `in`'s device becomes the
// profile's machine (host RAM / N) so that the verdict and the time speak of one machine.
std::optional<TimePlan> timePlan(const Options& opts, const CLI::App& app, PlanInput& in) {
    const TimeOptions& o = opts.timing;
    for (const char* opt : kTimeOptionNames)
        if (app.count(opt) && !opts.time)
            throw PlanError(std::string(opt) + " needs --time");
    if (!opts.time)
        return std::nullopt;
    if (o.hosts < 1 || in.world % o.hosts != 0)
        throw PlanError("--hosts " + std::to_string(o.hosts) + " must divide --world " +
                        std::to_string(in.world));
    if (o.hosts > 1 && o.profile.empty() && o.network.empty() && o.inter_link.empty())
        throw PlanError("--hosts " + std::to_string(o.hosts) +
                        ": say the link between them with --network (" + linkPresetKeys() +
                        ") or --inter-link (e.g. 400Gb/s/node)");
    for (const char* opt : {"--inter-link", "--nics-per-node"})
        if (app.count(opt) && o.hosts == 1)
            throw PlanError(std::string(opt) +
                            ": one host (--hosts 1), so no link between hosts to describe; give "
                            "--hosts H or --gpus-per-host G");
    MachineProfile profile;
    std::optional<InterHostLink> link;
    if (!o.profile.empty()) {
        if (app.count("--network") || app.count("--intra-link") || app.count("--matmul-fraction") ||
            app.count("--memory-fraction") || app.count("--inter-link") ||
            app.count("--nics-per-node"))
            throw PlanError("--profile excludes --network, --inter-link, --nics-per-node, "
                            "--intra-link and the fractions: the profile measured them");
        profile = loadMachineProfile(o.profile);
        if (!app.count("--device") && !app.count("--capacity-gb")) {
            const long long reserve = in.device.reserve_bytes;
            in.device = hostDevice(in.world, "host RAM / N of '" + profile.name + "'");
            in.device.reserve_bytes = app.count("--reserve-gb") ? reserve : 0;
        }
    } else {
        if (app.count("--capacity-gb"))
            throw PlanError("--time with --capacity-gb needs --profile (a custom device has no "
                            "datasheet)");
        profile = presetProfile(opts.device, o.intra_link, "", in.precision, o.matmul_fraction,
                                o.memory_fraction);
        if (o.hosts > 1) {
            link = interHostLink(o.network, o.inter_link, in.world / o.hosts,
                                 app.count("--nics-per-node") ? std::optional(o.nics_per_node)
                                                              : std::nullopt);
            profile.inter_link = link->spec;
        }
    }
    // No --micro (a config always gives one): every micro-batch that fits is tried.
    PlanInput searched = in;
    if (opts.config.empty() && opts.micro == 0)
        searched.micro_batch = 0;
    TimePlan t = planTime(searched, profile, ClusterShape{o.hosts});
    if (link)
        t.assumptions.insert(t.assumptions.begin(), link->description);
    return t;
}

// --gpus-per-host G with --hosts H gives --world H x G (or checks it); with --world alone
// it gives --hosts. Returns whether the world came from it.
bool applyGpusPerHost(Options& o, const CLI::App& app) {
    if (!app.count("--gpus-per-host"))
        return false;
    const int g = o.timing.gpus_per_host;
    if (g < 1)
        throw PlanError("--gpus-per-host " + std::to_string(g) + ": a host has at least one GPU");
    if (!app.count("--hosts")) {
        if (o.world % g != 0)
            throw PlanError("--gpus-per-host " + std::to_string(g) + " does not divide --world " +
                            std::to_string(o.world));
        o.timing.hosts = o.world / g;
        return false;
    }
    const long long world = static_cast<long long>(o.timing.hosts) * g;
    if (o.timing.hosts < 1 || world > kMaxWorld)
        throw PlanError("--hosts " + std::to_string(o.timing.hosts) + " x --gpus-per-host " +
                        std::to_string(g) + ": expected 1 to " + std::to_string(kMaxWorld) +
                        " ranks");
    if (app.count("--world") && o.world != world)
        throw PlanError("--world " + std::to_string(o.world) + " is not --hosts " +
                        std::to_string(o.timing.hosts) + " x --gpus-per-host " + std::to_string(g) +
                        " = " + std::to_string(world));
    o.world = static_cast<int>(world);
    return true;
}

// main() without the output check.
int runTool(int argc, char** argv) {
    CLI::App app{"zerolab-plan: per-rank memory and communication of ZeRO stages 0-3"};
    Options o;
    addOptions(app, o);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::cerr << "zerolab-plan: " << terminalText(e.what()) << "\n";
        return kExitInvalid;
    }
    try {
        o.world_from_hosts = applyGpusPerHost(o, app);
        PlanInput in;
        if (!o.config.empty()) {
            if (app.count("--params"))
                throw PlanError("--config and --params exclude each other");
            for (const char* shape_flag : {"--model", "--hf-config"})
                if (app.count(shape_flag))
                    throw PlanError(std::string("--config and ") + shape_flag +
                                    " exclude each other: the config's model section gives "
                                    "the shape");
            if (!applyConfig(o, app, in))
                return kExitInvalid;
        } else {
            in = inputFromOptions(o);
        }
        applyCommon(o, app, in);
        const ByteUnit unit = o.gib ? ByteUnit::GiB : ByteUnit::GB;
        const std::optional<TimePlan> time = timePlan(o, app, in);
        const Plan p = plan(time && !in.shape ? withAssumedShape(in) : in);
        if (o.json) {
            nlohmann::json j = toJson(p);
            if (o.explain)
                j["explain"] = explain(in, in.stage, unit);
            if (time)
                j["time"] = toJson(*time);
            std::cout << terminalText(j.dump(2)) << "\n";
        } else if (o.explain) {
            std::cout << terminalText(explain(in, in.stage, unit));
        } else {
            std::cout << terminalText(formatTable(p, unit));
            if (time)
                std::cout << "\n" << terminalText(formatTimeTable(*time));
        }
    } catch (const PlanError& e) {
        std::cerr << "zerolab-plan: " << terminalText(e.what()) << "\n";
        return kExitInvalid;
    }
    return kExitOk;
}

} // namespace

int main(int argc, char** argv) {
    return zerolab::exitAfterOutput("zerolab-plan", runTool(argc, argv));
}
