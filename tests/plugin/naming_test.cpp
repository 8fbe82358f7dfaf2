// UniqueNamer against the rule as docs/pass.md §3.3 states it (and pypto runs it): a set of every taken
// name, each candidate searched from _1, every made name added to the set.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "materialize_dist_tensor_ctx/naming.h"

namespace ptoplug::mdtc {
namespace {

class LiteralRule {
public:
    void use(const std::string& name) { taken_.insert(name); }
    std::string make(const std::string& base) {
        std::string candidate = base + "_ctx";
        if (taken_.insert(candidate).second) return candidate;
        for (int k = 1;; ++k) {
            std::string suffixed = candidate + "_" + std::to_string(k);
            if (taken_.insert(suffixed).second) return suffixed;
        }
    }

private:
    std::set<std::string> taken_;
};

TEST(UniqueNamer, FirstCandidateThenSuffixesPastTakenNames) {
    UniqueNamer names;
    names.use("x_ctx");
    names.use("x_ctx_2");
    names.use("y");  // cannot clash: not kept
    EXPECT_EQ(names.make("x"), "x_ctx_1");
    EXPECT_EQ(names.make("x"), "x_ctx_3");
    EXPECT_EQ(names.make("y"), "y_ctx");
    EXPECT_EQ(names.make("y"), "y_ctx_1");
    EXPECT_EQ(names.make("x_ctx"), "x_ctx_ctx");  // another family: "x_ctx" is a base here
    names.clear();
    EXPECT_EQ(names.make("x"), "x_ctx");
}

// Bases that are each other's candidates and suffixed names ("a", "a_ctx", "a_ctx_1", ...) and taken
// names of every shape, in random orders: the names are the literal rule's, one by one.
TEST(UniqueNamer, SameNamesAsTheLiteralRule) {
    const std::vector<std::string> bases = {"a", "a_ctx", "a_ctx_1", "a_ctx_ctx", "b", "", "_ctx", "a_1"};
    std::mt19937 random(20261201);
    for (int round = 0; round < 300; ++round) {
        UniqueNamer names;
        LiteralRule literal;
        const int taken = static_cast<int>(random() % 12);
        for (int i = 0; i < taken; ++i) {
            std::string name = bases[random() % bases.size()] + "_ctx";
            if (random() % 3 != 0) name += "_" + std::to_string(random() % 6);
            names.use(name);
            literal.use(name);
        }
        const int made = static_cast<int>(random() % 40);
        for (int i = 0; i < made; ++i) {
            const std::string& base = bases[random() % bases.size()];
            ASSERT_EQ(names.make(base), literal.make(base)) << "round " << round << ", name " << i;
        }
    }
}

}  // namespace
}  // namespace ptoplug::mdtc
