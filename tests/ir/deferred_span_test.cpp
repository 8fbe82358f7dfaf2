// ir/document.h: a deferred span is read from the document's SpanSource when asked for, and only then; a
// node given another's deferred span has that span; written, a document of deferred spans is the bytes of
// the same document with its spans in place.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "generator/program_generator.h"
#include "ir/writer.h"

namespace ptoplug::ir {
namespace {

class CountingSource final : public SpanSource {
public:
    explicit CountingSource(std::vector<Span> spans) : spans_(std::move(spans)) {}
    Span span(uint32_t id) const override {
        ++asked[id];
        return spans_.at(id);
    }
    mutable std::map<uint32_t, int> asked;

private:
    std::vector<Span> spans_;
};

TEST(DeferredSpanTest, ReadFromTheSourceWhenAskedForAndWrittenAsTheSpansInPlace) {
    Document doc;
    tools::generateProgram(doc, 20, false);
    auto eager = writeToString(doc, WriteOptions{Format::Json, false});
    ASSERT_TRUE(eager.ok());

    // Every node's span moved into a source, the node left with a deferred span numbered by its index.
    std::vector<Span> spans;
    for (Node* n : doc.nodes()) {
        Value* span = n->field(K::span);
        ASSERT_NE(span, nullptr);
        spans.push_back(doc.span(*span));
        *span = Document::deferredSpan(n->index);
    }
    auto source = std::make_shared<CountingSource>(spans);
    doc.setSpanSource(source);
    EXPECT_TRUE(source->asked.empty());

    Node* some = doc.nodes()[doc.nodes().size() / 2];
    EXPECT_EQ(doc.span(*some->field(K::span)), spans[some->index]);
    EXPECT_EQ(source->asked.size(), 1u);
    Node* other = doc.nodes()[1];
    *other->field(K::span) = *some->field(K::span);  // as a new node takes the span of the one it stands for
    EXPECT_EQ(doc.span(*other->field(K::span)), spans[some->index]);
    *other->field(K::span) = Document::deferredSpan(other->index);

    auto deferred = writeToString(doc, WriteOptions{Format::Json, false});
    ASSERT_TRUE(deferred.ok());
    EXPECT_EQ(*deferred, *eager);
    EXPECT_EQ(source->asked.size(), doc.nodes().size());
}

}  // namespace
}  // namespace ptoplug::ir
