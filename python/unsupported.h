// What the pypto object reader and writer do not handle exactly (python/pypto_graph_reader.h,
// pypto_graph_writer.h): thrown to unwind their walk, caught at its entry, which then says so and the
// caller takes pypto's serializer's way instead.
#pragma once

#include <string>

namespace ptoplug::python {

struct Unsupported {
    std::string what;
};

}  // namespace ptoplug::python
