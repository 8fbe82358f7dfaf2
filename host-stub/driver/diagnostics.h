// How pto-host reports: every diagnostic, file error and host note, in one of three formats, through
// one writer to stderr (docs/diagnostics.md).
//   text   file:line:col: error: message [rule]          (clang's and pypto's shape)
//   json   one JSON object per line, one schema for all  (file, line, column, end, severity, rule,
//                                                         message, pass, plugin, input, pointer, hint)
//   sarif  one SARIF 2.1.0 log of the whole run, written when the run ends
#pragma once

#include <string>

#include "abi_host/diagnostic.h"
#include "base/error.h"

namespace ptoplug::host {

enum class DiagnosticsFormat { Text, Json, Sarif };

/// "note", "warning", "error" or "internal error".
const char* severityName(pto_severity severity);
/// A diagnostic of a pass or verifier on program `input`, as one line.
std::string formatDiagnostic(const Diagnostic& d, const std::string& input, DiagnosticsFormat format);
/// A problem with a whole file (unreadable input, unwritable output, a dead worker), as lines.
std::string formatError(const Error& error, DiagnosticsFormat format);
/// A note of the host's own (a summary, an interruption), as one line.
std::string formatNote(const std::string& rule, const std::string& message, DiagnosticsFormat format);

/// Writes formatted lines to stderr, or keeps them for the SARIF log. Not thread-safe (the parent only).
void writeDiagnostics(const std::string& lines, DiagnosticsFormat format);
/// With sarif, writes the log of everything kept; nothing otherwise.
void finishDiagnostics(DiagnosticsFormat format);

}  // namespace ptoplug::host
