// ir/document.h: a deferred span is read from the document's SpanSource when asked for, and only then; a
// node given another's deferred span has that span; written, a document of deferred spans is the bytes of
// the same document with its spans in place; a span the source cannot give is an error at its place, never
// an invented span.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "generator/program_generator.h"
#include "ir/pointer.h"
#include "ir/writer.h"

namespace ptoplug::ir {
namespace {

class CountingSource final : public SpanSource {
public:
    explicit CountingSource(std::vector<Span> spans) : spans_(std::move(spans)) {}
    Expected<Span> span(uint32_t id) const override {
        ++asked[id];
        if (id == broken) {
            Error e;
            e.message = "the object of node " + std::to_string(id) + " raised";
            return e;
        }
        return spans_.at(id);
    }
    mutable std::map<uint32_t, int> asked;
    uint32_t broken = ~0u;  ///< the span it cannot give

private:
    std::vector<Span> spans_;
};

// Every node's span moved into a source, the node left with a deferred span numbered by its index.
std::shared_ptr<CountingSource> deferSpans(Document& doc) {
    std::vector<Span> spans;
    for (Node* n : doc.nodes()) {
        Value* span = n->field(K::span);
        if (!span) {
            ADD_FAILURE() << "a generated node without a span";
            break;
        }
        spans.push_back(*doc.span(*span));
        *span = Document::deferredSpan(n->index);
    }
    auto source = std::make_shared<CountingSource>(spans);
    doc.setSpanSource(source);
    return source;
}

TEST(DeferredSpanTest, ReadFromTheSourceWhenAskedForAndWrittenAsTheSpansInPlace) {
    Document doc;
    tools::generateProgram(doc, 20, false);
    auto eager = writeToString(doc, WriteOptions{Format::Json, false});
    ASSERT_TRUE(eager.ok());
    std::vector<Span> spans;
    for (Node* n : doc.nodes()) spans.push_back(*doc.span(*n->field(K::span)));

    auto source = deferSpans(doc);
    EXPECT_TRUE(source->asked.empty());

    Node* some = doc.nodes()[doc.nodes().size() / 2];
    EXPECT_EQ(*doc.span(*some->field(K::span)), spans[some->index]);
    EXPECT_EQ(source->asked.size(), 1u);
    Node* other = doc.nodes()[1];
    *other->field(K::span) = *some->field(K::span);  // as a new node takes the span of the one it stands for
    EXPECT_EQ(*doc.span(*other->field(K::span)), spans[some->index]);
    *other->field(K::span) = Document::deferredSpan(other->index);

    auto deferred = writeToString(doc, WriteOptions{Format::Json, false});
    ASSERT_TRUE(deferred.ok());
    EXPECT_EQ(*deferred, *eager);
    EXPECT_EQ(source->asked.size(), doc.nodes().size());
}

TEST(DeferredSpanTest, ASpanTheSourceCannotGiveIsAnErrorAtItsPlaceAndNothingIsWritten) {
    for (Format format : {Format::Json, Format::MsgPack}) {
        Document doc;
        tools::generateProgram(doc, 5, false);
        auto source = deferSpans(doc);
        // A node of the middle that has a place of its own (some are only referred to where they are).
        size_t i = doc.nodes().size() / 2;
        while (pointerToNode(doc, doc.nodes()[i]).empty()) ++i;
        const Node* broken = doc.nodes()[i];
        source->broken = broken->index;

        Expected<Span> read = doc.span(*broken->field(K::span));
        ASSERT_FALSE(read.ok());
        EXPECT_EQ(read.error().message, "the object of node " + std::to_string(broken->index) + " raised");

        auto written = writeToString(doc, WriteOptions{format, false});
        ASSERT_FALSE(written.ok());
        EXPECT_EQ(written.error().message, "the object of node " + std::to_string(broken->index) + " raised");
        EXPECT_EQ(written.error().pointer, pointerToNode(doc, broken) + "/fields/span");
    }
}

TEST(DeferredSpanTest, ADeferredSpanWithoutASourceIsAnErrorNotACrash) {
    Document doc;
    EXPECT_FALSE(doc.span(Document::deferredSpan(0)).ok());
}

}  // namespace
}  // namespace ptoplug::ir
