// What a batch reads and writes: the inputs found in files, folders and globs, where their outputs go,
// which share of them a machine takes, and the rule that no output may overwrite an input.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"
#include "ir/document.h"

namespace ptoplug::host {

struct BatchItem {
    std::string input;
    std::string output;
    std::string problem;   ///< set when listing the inputs found this entry unusable: reported, not run
    std::string relative;  ///< the input's path below the folder or glob base it was found in (or its name)
};

/// Which files found in folders and globs are inputs (files named on the command line always are):
/// those that match an `include` pattern (default: *.json, *.msgpack) and no `exclude` pattern.
/// fnmatch patterns: one without '/' matches the file name at any depth, one with '/' the path
/// relative to the folder given (`*` also matches '/').
struct InputFilter {
    std::vector<std::string> include;
    std::vector<std::string> exclude;
    bool admits(const std::string& relative) const;
};

/// Files, folders (recursively, following linked folders once; outputs keep the relative path) and
/// globs (outputs keep the path below the glob's base), mapped into `outDir`. Paths are computed from
/// the inputs as given, never from a link's target. With an `outputFormat`, an output named .json or
/// .msgpack takes that format's extension. An unusable entry (a loop, an unreadable folder, a dangling
/// link, a FIFO, socket or device, named or found) becomes an item with a `problem`, never opened. Errors:
/// a missing top-level input, no input at all, two inputs with one output.
Expected<std::vector<BatchItem>> expandBatchInputs(const std::vector<std::string>& inputs, const std::string& outDir,
                                                   const InputFilter& filter = {},
                                                   ir::Format outputFormat = ir::Format::Auto);

/// Fails, unless `allowInPlace`, when an output would be written to a path that is or resolves to one
/// of the inputs, or `outDir` is or lies inside an input folder (a folder named or globbed), as written or
/// as it resolves through links (passes need not be idempotent).
Status checkOutputsSpareInputs(const std::vector<std::string>& inputs, const std::string& outDir,
                               const std::vector<BatchItem>& items, bool allowInPlace);

/// Fails when `path`, a file written beside the programs (`what`: "the report", "the graph"), would
/// overwrite an input or an output of `items` (never allowed, not even with --in-place: it is no program),
/// or go to stdout ("-") with an output that does. An item's empty output is none (a command that writes
/// no program).
Status checkSideOutput(const std::string& what, const std::string& path, const std::vector<BatchItem>& items,
                       const std::string& hint);

/// Fails when the batch report at `report` would overwrite an input or an output of `items` (never
/// allowed, not even with --in-place), is a folder, or cannot be written where it is asked for (its folder
/// is made here, so that a bad path fails before any file is run rather than after all of them).
Status checkReportPath(const std::string& report, const std::vector<BatchItem>& items);

/// A share of a batch, `K/N` (--shard): decimal digits only (no sign, space or other text), each within
/// 32 bits, 1 <= K <= N; nothing when `text` is anything else.
struct Shard {
    uint32_t index;  ///< K, 1-based
    uint32_t count;  ///< N
};
std::optional<Shard> parseShard(std::string_view text);

/// The share `shard` (1-based) of `shards` of `items`: stable and disjoint, chosen by a hash of each
/// input's relative path, so that N machines given the same corpus (wherever it is mounted) split it
/// without coordination.
std::vector<BatchItem> shardOf(std::vector<BatchItem> items, uint32_t shard, uint32_t shards);

}  // namespace ptoplug::host
