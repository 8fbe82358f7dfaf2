// The dynamic symbols of an ELF64 shared object, read from its .dynsym: what it exports and what it
// needs. Hand-written (about 80 lines) because no Debian library reads ELF symbol tables simply;
// pto-plugin-check uses it to enforce "exactly one exported symbol".
#pragma once

#include <string>
#include <vector>

namespace ptoplug::checker {

struct DynamicSymbol {
    std::string name;
    bool defined = false;  ///< false: undefined, the plugin needs it from elsewhere
    bool weak = false;
    bool function = false;
};

/// Reads the symbols of `path`; false (with `error` set) if it is not a readable ELF64 object.
bool readDynamicSymbols(const std::string& path, std::vector<DynamicSymbol>& out, std::string& error);

/// True for symbols every toolchain adds to a shared object (_init, _fini, __bss_start, ...).
bool isToolchainSymbol(const std::string& name);

}  // namespace ptoplug::checker
