// Reading a large input in two parts on two threads (docs/ir_format.md §11.13).
//
// A scan that builds nothing finds the containers from the root to the middle of the input and the
// innermost array there (in a pypto Program, the host orchestration function's statements). This thread
// reads everything before that array's item at the middle; the other opens the same containers and reads
// the rest (the array's later items, then each enclosing container's later members) into a document of
// its own, which then joins this one (Builder::appendPart). Every value goes through the format's parser
// and the same Builder rules, so the document is the one a single pass builds. Each format supplies the
// scan and the two readings; the rest is here once.
#pragma once

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "base/step_times.h"
#include "ir/builder.h"
#include "ir/consumed_input.h"

namespace ptoplug::ir {

/// A container on the way from the root to the middle of the input.
struct Level {
    bool isMap = false;
    uint32_t count = 0;    ///< members or items, where the format says (MessagePack); else 0
    uint32_t onPath = 0;   ///< the member or item that holds the middle
    std::string_view key;  ///< a map's: the key of that member
    size_t itemStart = 0;  ///< offset of that member's value, or item
};

/// Deeper paths are read in one part.
inline constexpr size_t kMaxSplitLevels = 64;

struct TwoPartFormat {
    /// The containers from the root to the first value that ends past `middle` (each with `onPath` the
    /// member holding it); nullopt if the input ends first, breaks the format or has a key on the way that
    /// cannot be replayed. The pages it reads stay mapped: the first part reads them next.
    std::optional<std::vector<Level>> (*pathTo)(std::string_view bytes, size_t middle);
    /// Feeds `builder` every value of `prefix`, which ends at an item start: the reading stops there.
    void (*readFirst)(std::string_view prefix, Builder& builder, ConsumedInput& consumed);
    /// With the containers of `path` open in `part`: reads the rest of each, innermost first, calling
    /// part.setAside() as each is done; false if a rule is broken or the input does not end there.
    bool (*readRest)(std::string_view bytes, const std::vector<Level>& path, Builder& part, ConsumedInput& consumed);
};

/// The document, or nullptr when the input has no array at its middle or any rule is broken or the parts
/// disagree: the caller then reads it in one part, which reports every problem as usual. `steps`, if given,
/// gets the time of each step.
std::unique_ptr<Document> readInTwoParts(std::string_view bytes, const ConsumedInput& consumed,
                                         const TwoPartFormat& format, StepTimes* steps = nullptr);

}  // namespace ptoplug::ir
