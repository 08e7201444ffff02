// Training data as one token stream read in llm.c's order: the interface every
// data source implements (synthetic, text, llmc), the batch addressing the trainer
// relies on, and the factory that picks a source from the config's `data` section.
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

namespace zerolab {

// The one exception type of the data loaders. The message names the file (or
// source) and the problem, e.g. "llmc shard 'x.bin': bad magic 123 (expected
// 20240520)" or "... token 70000 at position 12 is >= vocab_size 50257".
class DataError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// One token stream, read sequentially with no shuffling (llm.c's order).
//
// Global batch `step` of G sequences of T tokens starts at stream token
// start = b * G * T, where b = step mod (batches per epoch); its sequence i is the
// T+1 tokens [start + i*T, start + i*T + T]: inputs are the first T, targets the
// last T. An epoch holds floor((tokens - 1) / (G*T)) whole global batches; the tail
// that does not fill one is skipped and the stream wraps to its start.
//
// The trainer has rank r at micro-step a take first_seq = r*(G/N) + a*micro,
// n_seq = micro, so the global batch is the same whatever the world size N is.
//
// Threading: not thread-safe (sources cache blocks, epoch() is updated); one
// loader per rank, used from one thread.
class DataLoader {
public:
    virtual ~DataLoader() = default;

    // Fills inputs and targets, each (n_seq, T) row-major, for sequences
    // [first_seq, first_seq + n_seq) of the global batch (global_batch sequences)
    // of `step`. Throws DataError if the stream is shorter than one global batch
    // plus one token, on arguments out of range, or on a malformed token.
    void batch(long long step, int global_batch, int first_seq, int n_seq, int T, int* inputs,
               int* targets);

    // Zero-based epoch of the most recent batch() call: 1 once the stream has
    // wrapped around once, and so on. Always 0 for an unbounded source.
    long long epoch() const { return m_epoch; }

    // Size of the token alphabet the source produces (256 for byte sources).
    virtual int vocabSize() const = 0;
    // Tokens in one epoch; nullopt for an unbounded source (synthetic).
    virtual std::optional<long long> tokenCount() const = 0;
    // One line for logs and the run record: type, path or seed, size.
    virtual std::string describe() const = 0;

protected:
    // Writes stream tokens [first, first + count) to out; first + count <=
    // tokenCount() for bounded sources. Throws DataError on a malformed token.
    virtual void readTokens(long long first, long long count, int* out) = 0;

private:
    long long m_epoch = 0;
};

// type: "synthetic" | "text" | "llmc". path: unused for synthetic; a file for
// text; a file, a glob pattern or a directory of *.bin shards for llmc.
// vocab_size: the model's vocabulary; every token the source can produce must be
// below it (byte sources need >= 256). seed: the synthetic generator's seed
// (text and llmc are read in order and ignore it). Throws DataError.
std::unique_ptr<DataLoader> makeDataLoader(const std::string& type, const std::string& path,
                                           int vocab_size, unsigned long long seed);

} // namespace zerolab
