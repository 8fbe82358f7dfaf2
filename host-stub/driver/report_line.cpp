#include "driver/report_line.h"

#include <nlohmann/json.hpp>

#include "io/digest.h"

namespace ptoplug::host {

std::string reportLine(const BatchItem& item, const char* status, int exitCode, const FileReport* counts,
                       double seconds, bool outputWritten, const std::string& inputSha256) {
    auto orNull = [](const std::string& s) { return s.empty() ? nlohmann::json() : nlohmann::json(s); };
    nlohmann::json line = {
        {"input", item.input},
        {"output", item.output},
        {"status", status},
        {"exit_code", exitCode},
        {"diagnostics",
         {{"errors", counts ? counts->errors : 0},
          {"warnings", counts ? counts->warnings : 0},
          {"notes", counts ? counts->notes : 0}}},
        {"seconds", seconds},
        {"input_sha256", orNull(inputSha256)},  // of the bytes processed, not of the file after the run
        {"output_sha256", orNull(outputWritten ? io::sha256OfFile(item.output) : std::string())},
    };
    return line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace ptoplug::host
