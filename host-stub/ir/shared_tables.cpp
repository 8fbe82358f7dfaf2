#include "ir/shared_tables.h"

#include "ir/document.h"
#include "ir/schema.h"
#include "ir/writer.h"

namespace ptoplug::ir {

void prepareSharedTables() {
    KeyTable::prepareSharedTables();
    schemaFor(K::Program);
    prepareWriterTables();
}

}  // namespace ptoplug::ir
