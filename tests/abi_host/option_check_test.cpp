// The contract of ABI 1.2's check of a pass's option values (pto_pass_desc.check_options) and of
// refuse_option, over the stub host's table: what a check reads, how it refuses, what it cannot reach.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "abi_host/runner.h"
#include "table_fixture.h"

namespace ptoplug::table_test {
namespace {

std::string lastError(const pto_host_api* h, pto_run_context* ctx) {
    pto_string why{};
    EXPECT_EQ(h->last_error(ctx, &why), PTO_OK);
    return text(why);
}

// The options a check is given: level = 7 (int), name = "x y" (string).
std::vector<host::PassOption> options() {
    host::PassOption level{"level", {}, {}}, name{"name", {}, {}};
    level.value.type = PTO_OPTION_INT;
    level.value.i = 7;
    name.value.s = "x y";
    return {level, name};
}

host::RunOutcome check(Body body) {
    gBody = std::move(body);
    const std::vector<host::PassOption> given = options();
    return host::runOptionCheck(runBody, given);
}

TEST(OptionCheck, ACheckReadsItsOptionsAndTheFirstRefusalIsReported) {
    const host::RunOutcome o = check([](const pto_host_api* h, pto_run_context* ctx) {
        pto_value v{};
        int64_t level = 0;
        EXPECT_EQ(h->pass_option(ctx, S("level"), &v), PTO_OK);
        EXPECT_EQ(h->value_as_int64(ctx, v, &level), PTO_OK);
        EXPECT_EQ(level, 7);
        EXPECT_EQ(h->refuse_option(ctx, S("level"), S("must be at most 3")), PTO_OK);
        EXPECT_EQ(h->refuse_option(ctx, S("name"), S("must be an identifier")), PTO_OK);  // not reported
        return PTO_OK;
    });
    EXPECT_EQ(o.status, PTO_OK);
    EXPECT_FALSE(o.failed());
    EXPECT_EQ(o.refusal.option, "level");
    EXPECT_EQ(o.refusal.message, "must be at most 3");
}

TEST(OptionCheck, ACheckThatAcceptsRefusesNothing) {
    const host::RunOutcome o = check([](const pto_host_api*, pto_run_context*) { return PTO_OK; });
    EXPECT_EQ(o.status, PTO_OK);
    EXPECT_TRUE(o.refusal.option.empty());
}

TEST(OptionCheck, RefuseOptionTakesADeclaredNameAndStrings) {
    const host::RunOutcome o = check([](const pto_host_api* h, pto_run_context* ctx) {
        EXPECT_EQ(h->refuse_option(ctx, S("nope"), S("why")), PTO_ERR_NOT_FOUND);
        EXPECT_EQ(lastError(h, ctx), "refuse_option: PTO_ERR_NOT_FOUND: the pass declares no option 'nope'");
        EXPECT_EQ(h->refuse_option(ctx, pto_string{nullptr, 3}, S("why")), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->refuse_option(ctx, S("level"), pto_string{nullptr, 1}), PTO_ERR_INVALID_HANDLE);
        EXPECT_EQ(h->refuse_option(nullptr, S("level"), S("why")), PTO_ERR_INVALID_HANDLE);
        return PTO_OK;
    });
    EXPECT_TRUE(o.refusal.option.empty());
}

// A check has no program: every read of one fails, every change is refused.
TEST(OptionCheck, ACheckHasNoProgram) {
    const host::RunOutcome o = check([](const pto_host_api* h, pto_run_context* ctx) {
        pto_node p{};
        size_t n = 0;
        EXPECT_NE(h->program(ctx, &p), PTO_OK);
        EXPECT_NE(h->program_function_count(ctx, &n), PTO_OK);
        EXPECT_EQ(h->flush_inserts(ctx), PTO_ERR_UNSUPPORTED);
        return PTO_OK;
    });
    EXPECT_EQ(o.status, PTO_OK);
}

// A context kept from a check is refused afterwards, as every context after its run.
TEST(OptionCheck, AContextKeptFromACheckIsRefused) {
    pto_run_context* kept = nullptr;
    const pto_host_api* table = nullptr;
    check([&](const pto_host_api* h, pto_run_context* ctx) {
        kept = ctx;
        table = h;
        return PTO_OK;
    });
    ASSERT_NE(table, nullptr);
    EXPECT_EQ(table->refuse_option(kept, S("level"), S("why")), PTO_ERR_INVALID_HANDLE);
}

class RefuseOptionInARun : public HostTableTest {};

// Outside a check (a pass or a verifier) refuse_option is unsupported: a pass reports a bad value itself.
TEST_F(RefuseOptionInARun, IsUnsupported) {
    const std::vector<host::PassOption> given = options();
    for (bool verifier : {false, true})
        EXPECT_EQ(run(
                      [](const pto_host_api* h, pto_run_context* ctx) {
                          EXPECT_EQ(h->refuse_option(ctx, S("level"), S("why")), PTO_ERR_UNSUPPORTED);
                          EXPECT_EQ(lastError(h, ctx),
                                    "refuse_option: PTO_ERR_UNSUPPORTED: only a pass's check_options refuses an "
                                    "option; a pass reports a bad value as a diagnostic");
                          return PTO_OK;
                      },
                      host::RunSettings{.options = &given, .readOnly = verifier}),
                  PTO_OK);
    EXPECT_EQ(printed(), original);
}

}  // namespace
}  // namespace ptoplug::table_test
