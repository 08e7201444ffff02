// Checkpoint files. Layout of one checkpoint folder:
//   meta.json            step, tokens, run id, world, stage, precision, shape, files
//                        with their sizes and FNV-1a 64 checksums, and its own checksum
//                        (checkpoint_meta.h)
//   model.bin            fp32 llm.c model file (the master weights for bf16); for the
//   model.safetensors    Llama family F32 safetensors instead (model_weights.h)
//   optim-rank<r>.bin    a 64-byte header, then m, v (and master for bf16), each the
//                        rank's owned slices of every unit back to back (stage 0: rank 0
//                        only, the full buffers)
#include "runtime/engine/checkpoint.h"

#include "runtime/engine/checkpoint_shard.h"
#include "runtime/engine/fnv1a.h"
#include "runtime/engine/model_weights.h"
#include "runtime/model/gpt2/llmc_model_file.h"
#include "runtime/model/safetensors.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <vector>

namespace zerolab {

namespace fs = std::filesystem;

namespace {

// "No space left on device (errno 28)": what the event of a failed write names.
std::string errnoText(int err) {
    return std::string(std::strerror(err)) + " (errno " + std::to_string(err) + ")";
}

std::uint64_t fileChecksum(const std::string& path, std::uint64_t basis) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw CheckpointError(path + ": cannot open");
    std::vector<char> buf(1 << 20);
    std::uint64_t h = basis;
    while (in) {
        in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
        h = fnv1a(buf.data(), static_cast<std::size_t>(in.gcount()), h);
    }
    return h;
}

// Writes all bytes and fsyncs; a short write (full disk) throws.
class SyncedFile {
public:
    explicit SyncedFile(const std::string& path) : m_path(path) {
        m_fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (m_fd < 0)
            throw CheckpointWriteError(path + ": cannot create: " + errnoText(errno));
    }
    ~SyncedFile() {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    void write(const void* data, std::size_t n) {
        const char* p = static_cast<const char*>(data);
        while (n > 0) {
            const ssize_t w = ::write(m_fd, p, n);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0)
                throw CheckpointWriteError(m_path +
                                           ": write failed: " + errnoText(w < 0 ? errno : ENOSPC));
            m_hash = fnv1a(p, static_cast<std::size_t>(w), m_hash);
            p += w;
            n -= static_cast<std::size_t>(w);
        }
    }
    std::uint64_t close() {
        if (::fsync(m_fd) != 0 || ::close(m_fd) != 0) {
            const int err = errno;
            m_fd = -1;
            throw CheckpointWriteError(m_path + ": fsync/close failed: " + errnoText(err));
        }
        m_fd = -1;
        return m_hash;
    }

private:
    std::string m_path;
    int m_fd = -1;
    std::uint64_t m_hash = kFnv1aBasis;
};

void syncDir(const fs::path& dir) {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

} // namespace

std::string writeCheckpoint(const TrainConfig& config, ZeroEngine& engine, Communicator& comm,
                            const CheckpointMeta& meta) {
    const fs::path final = fs::path(config.run.checkpoint_dir) /
                           ("run-" + std::to_string(meta.run_id)) /
                           ("step-" + std::to_string(meta.step));
    const fs::path tmp = final.string() + ".tmp";
    // Rank 0's verdict, shared so that every rank throws together (or none does).
    auto agree = [&](int ok, const std::string& error) {
        comm.broadcastBytes(&ok, sizeof ok, 0);
        if (ok)
            return;
        if (comm.rank() == 0) {
            std::error_code ec; // the partial folder goes; the earlier checkpoints stay
            fs::remove_all(tmp, ec);
            throw CheckpointWriteError(error);
        }
        throw CheckpointWriteError("rank 0 could not write the checkpoint " + tmp.string());
    };
    int ok = 1;
    std::string error;
    if (comm.rank() == 0) {
        std::error_code ec;
        fs::remove_all(tmp, ec);
        if (!ec)
            fs::create_directories(tmp, ec);
        if (ec) {
            ok = 0;
            error = tmp.string() + ": cannot create: " + ec.message() + " (errno " +
                    std::to_string(ec.value()) + ")";
        }
    }
    agree(ok, error);

    const ParamLayout& layout = engine.layout();
    std::vector<float> flat(layout.padded_total);
    engine.fullParams(flat.data());

    const bool bf16 = config.precision == Precision::Bf16Mixed;
    // Each rank's shard file: its checksum and size, or why it could not be written.
    struct FileSum {
        std::uint64_t hash = 0;
        std::int64_t size = 0;
        char error[512] = {};
    } mine;
    const bool writesOptim = engine.stage() > 0 || comm.rank() == 0;
    if (writesOptim) {
        try {
            OptimHeader h;
            h.rank = comm.rank();
            h.world = comm.size();
            h.stage = engine.stage();
            h.arrays = bf16 ? 3 : 2;
            h.elems = engine.ownedElems();
            SyncedFile f((tmp / checkpointOptimFileName(comm.rank())).string());
            f.write(&h, sizeof h);
            std::vector<float> owned(static_cast<std::size_t>(h.elems));
            for (const OwnedState s :
                 {OwnedState::OptimM, OwnedState::OptimV, OwnedState::Master}) {
                if (s == OwnedState::Master && !bf16)
                    break;
                engine.readOwned(s, owned.data());
                f.write(owned.data(), h.elems * sizeof(float));
            }
            mine.hash = f.close();
            mine.size = static_cast<std::int64_t>(sizeof h + h.arrays * h.elems * sizeof(float));
        } catch (const CheckpointWriteError& e) {
            std::snprintf(mine.error, sizeof mine.error, "%s", e.what());
        }
    }
    std::vector<FileSum> sums(comm.rank() == 0 ? comm.size() : 0);
    comm.gatherBytes(&mine, sizeof mine, comm.rank() == 0 ? sums.data() : nullptr);

    if (comm.rank() == 0) {
        for (int r = 0; r < comm.size() && ok; ++r)
            if (sums[r].error[0] != '\0') {
                ok = 0;
                error =
                    (r == 0 ? "" : "rank " + std::to_string(r) + ": ") + std::string(sums[r].error);
            }
        try {
            if (ok) {
                const std::string model_file = modelWeightsFileName(config.model.shape);
                const std::string model = (tmp / model_file).string();
                writeModelWeights(model, layout, flat.data());
                CheckpointManifest m;
                m.meta = meta;
                m.meta.world = comm.size();
                m.meta.stage = engine.stage();
                m.precision = std::string(toString(config.precision));
                m.shape = config.model.shape;
                m.files[model_file] = {static_cast<std::int64_t>(fs::file_size(model)),
                                       fnv1aHex(fileChecksum(model, kFnv1aBasis))};
                for (int r = 0; r < comm.size(); ++r)
                    if (engine.stage() > 0 || r == 0)
                        m.files[checkpointOptimFileName(r)] = {sums[r].size,
                                                               fnv1aHex(sums[r].hash)};
                SyncedFile metaFile((tmp / "meta.json").string());
                const std::string text = checkpointMetaText(m);
                metaFile.write(text.data(), text.size());
                metaFile.close();
                syncDir(tmp);
                // Replace an older checkpoint of the same step only once the new one is
                // whole.
                if (fs::exists(final))
                    fs::remove_all(final);
                fs::rename(tmp, final);
                syncDir(final.parent_path());
            }
        } catch (const fs::filesystem_error& e) {
            ok = 0;
            error = e.what() + std::string(" (errno ") + std::to_string(e.code().value()) + ")";
        } catch (const LlmcModelFileError& e) {
            const int err = errno; // fwrite's, which the message names only in words
            ok = 0;
            error = e.what() + (err ? " (errno " + std::to_string(err) + ")" : std::string());
        } catch (const SafetensorsError& e) {
            ok = 0; // replaceFileWith's message names the step and its errno
            error = e.what();
        } catch (const std::exception& e) {
            ok = 0;
            error = e.what();
        }
    }
    agree(ok, error);
    return final.string();
}

namespace {

struct OldShardFile {
    std::string path;
    std::ifstream in;
    OptimHeader header;
};

} // namespace

CheckpointMeta loadCheckpoint(const std::string& path, const TrainConfig& config,
                              ZeroEngine& engine, Communicator& comm) {
    const fs::path dir(path);
    const fs::path metaPath = dir / "meta.json";
    const CheckpointManifest manifest = readCheckpointMeta(metaPath.string());
    const CheckpointMeta out = manifest.meta;
    if (const std::string why = checkpointModelMismatch(manifest.shape, config.model.shape);
        !why.empty())
        throw CheckpointError(path + ": the checkpoint's model differs from the config's: " + why);
    if (manifest.precision != toString(config.precision))
        throw CheckpointError(path + ": the checkpoint is " + manifest.precision + ", the config " +
                              std::string(toString(config.precision)));

    // Every file this rank reads must match its recorded size and checksum.
    auto verify = [&](const std::string& name) {
        const fs::path p = dir / name;
        const auto entry = manifest.files.find(name);
        if (entry == manifest.files.end())
            throw CheckpointError(metaPath.string() + ": no entry for " + name);
        const CheckpointFileSum& e = entry->second;
        if (!fs::exists(p))
            throw CheckpointError(p.string() + ": missing");
        if (static_cast<std::int64_t>(fs::file_size(p)) != e.size)
            throw CheckpointError(p.string() + ": truncated or resized (" +
                                  std::to_string(fs::file_size(p)) + " bytes, expected " +
                                  std::to_string(e.size) + ")");
        if (fnv1aHex(fileChecksum(p.string(), manifest.checksum_basis)) != e.fnv1a64)
            throw CheckpointError(p.string() + ": checksum mismatch (corrupted)");
        return p.string();
    };

    const ParamLayout& layout = engine.layout();
    std::vector<float> flat(layout.padded_total);
    readModelWeights(verify(modelWeightsFileName(config.model.shape)), layout, flat.data());
    engine.setFullParams(flat.data());

    // Re-partition: the new owner of unit element e reads it from the old owner's file.
    const ParamLayout old = makeParamLayout(config.model.shape, out.world);
    const bool bf16 = config.precision == Precision::Bf16Mixed;
    const int arrays = bf16 ? 3 : 2;
    std::vector<std::unique_ptr<OldShardFile>> files(out.world);
    auto fileOf = [&](int q) -> OldShardFile& {
        if (!files[q]) {
            auto f = std::make_unique<OldShardFile>();
            f->path = verify(checkpointOptimFileName(q));
            f->in.open(f->path, std::ios::binary);
            const std::string name = checkpointOptimFileName(q);
            f->header = readOptimShardHeader(
                f->in, f->path, {q, out.world, out.stage, arrays, manifest.files.at(name).size});
            files[q] = std::move(f);
        }
        return *files[q];
    };
    // Assembled on the host, then copied to the engine's memory in one go per array.
    std::vector<std::vector<float>> owned(arrays, std::vector<float>(engine.ownedElems(), 0.0f));
    std::vector<std::int64_t> oldShardOffset(old.units.size());
    for (std::size_t u = 0, acc = 0; u < old.units.size(); ++u) {
        oldShardOffset[u] = static_cast<std::int64_t>(acc);
        acc += old.units[u].padded_elems / out.world;
    }
    for (const auto& U : layout.units) {
        const int u = U.index;
        const std::int64_t start = engine.ownedStartInUnit(u);
        const std::int64_t len = engine.ownedLength(u);
        const std::int64_t end = std::min(start + len, U.elems); // beyond: padding, zeros
        const std::int64_t oldSlice =
            out.stage == 0 ? old.units[u].padded_elems : old.units[u].padded_elems / out.world;
        for (std::int64_t e = start; e < end;) {
            const int q = out.stage == 0 ? 0 : static_cast<int>(e / oldSlice);
            const std::int64_t qEnd = std::min(end, (q + 1) * oldSlice);
            const std::int64_t inFile = (out.stage == 0 ? old.units[u].offset : oldShardOffset[u]) +
                                        (e - q * (out.stage == 0 ? 0 : oldSlice));
            OldShardFile& f = fileOf(q);
            for (int a = 0; a < arrays; ++a) {
                const std::int64_t pos =
                    static_cast<std::int64_t>(sizeof(OptimHeader)) +
                    (a * f.header.elems + inFile) * static_cast<std::int64_t>(sizeof(float));
                f.in.seekg(pos);
                f.in.read(
                    reinterpret_cast<char*>(owned[a].data() + engine.ownedOffset(u) + (e - start)),
                    (qEnd - e) * static_cast<std::int64_t>(sizeof(float)));
                if (!f.in)
                    throw CheckpointError(f.path + ": short read at byte " + std::to_string(pos));
            }
            e = qEnd;
        }
    }
    const OwnedState order[3] = {OwnedState::OptimM, OwnedState::OptimV, OwnedState::Master};
    for (int a = 0; a < arrays; ++a)
        engine.writeOwned(order[a], owned[a].data());
    comm.barrier();
    return out;
}

} // namespace zerolab
