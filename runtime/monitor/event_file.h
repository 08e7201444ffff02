// TensorBoard event files without TensorBoard: TFRecord framing (length, masked CRC-32C
// of the length, data, masked CRC-32C of the data) around tensorflow.Event protos
// holding scalar Summary values, written with a small protobuf encoder of our own; and
// the reader the tests (and anyone without TensorBoard) decode them with.
#pragma once

#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace zerolab {

// A file that cannot be written or read, or a record that fails its CRC or its proto.
class EventFileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// One decoded Event: a scalar (tag, simple_value) or the file_version header.
struct ScalarEvent {
    double wall_time = 0;
    std::int64_t step = 0;
    std::string file_version; // "brain.Event:2" in the first record, else empty
    std::string tag;
    float value = 0;
};

// Appends Events to `folder`/events.out.tfevents.<unix time, 10 digits>.<host>.<pid>.0
// (the name torch's SummaryWriter gives), the folder created. The first record is the
// file_version Event. Every write is flushed (as DeepSpeed's write_events(flush=True)).
class EventFileWriter {
public:
    EventFileWriter(const std::string& folder, const std::string& host);
    const std::string& path() const { return m_path; }
    // One Event at `step` holding one scalar Summary.Value per (tag, value).
    void addScalars(std::int64_t step, double wall_time,
                    const std::vector<std::pair<std::string, double>>& scalars);

private:
    void writeRecord(const std::string& data);

    std::string m_path;
    std::ofstream m_out;
};

// Every Event of an event file, one ScalarEvent per Summary.Value (an Event without
// values, the header, as one with file_version set). Throws EventFileError naming the
// file and the record's offset on a short record, a CRC mismatch or a malformed proto.
std::vector<ScalarEvent> readEventFile(const std::string& path);

// The wire format of the three protos, exposed for the tests.
std::string encodeScalarEvent(double wall_time, std::int64_t step,
                              const std::vector<std::pair<std::string, double>>& scalars);
std::string encodeFileVersionEvent(double wall_time);
std::string frameRecord(const std::string& data);

} // namespace zerolab
