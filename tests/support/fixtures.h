// Test support: the bundled fixtures, and checks that are independent of the code under test.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "ir/document.h"

namespace ptoplug::test {

struct Fixture {
    std::string name;     ///< "<case>/before" or "<case>/after"
    std::string json;     ///< canonical JSON bytes
    std::string msgpack;  ///< pypto's MessagePack bytes
    std::string text;     ///< pypto's printed text
    /// pypto's own writer put a full node after a reference to it in read order (docs/ir_format.md §2.1):
    /// true for the host-orchestration fixtures, whose CommDomainScopeStmt slots come first.
    bool pyptoPlacementUnreadable = false;
};
/// What gtest (and so CTest's test names) print for a fixture parameter.
inline void PrintTo(const Fixture& f, std::ostream* os) { *os << f.name; }

std::string dataDir();
std::string readBytes(const std::string& path);
const std::vector<Fixture>& allFixtures();
/// The fixture called `name` ("<case>/before"); aborts the test run if there is none.
const Fixture& fixtureNamed(const std::string& name);
std::string testName(const std::string& fixtureName);

/// A placement-independent rendering of a document: every node in full at its first occurrence in
/// key order, later occurrences as "#k" back-references. Equal renderings = equal programs.
std::string resolvedJson(const ir::Document& doc);

/// Replays pypto's reader (docs/ir_format.md §2, §6 read orders, transcribed independently of the writer)
/// over a JSON rendering; returns a description of the first reference met before its full node,
/// or "" if pypto could read the file.
std::string firstReferenceBeforeDefinition(const std::string& jsonText);

}  // namespace ptoplug::test
