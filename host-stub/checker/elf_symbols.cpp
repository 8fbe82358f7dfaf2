#include "checker/elf_symbols.h"

#include <elf.h>

#include <cstring>
#include <fstream>
#include <iterator>

namespace ptoplug::checker {

bool readDynamicSymbols(const std::string& path, std::vector<DynamicSymbol>& out, std::string& error) {
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.size() < sizeof(Elf64_Ehdr) || std::memcmp(bytes.data(), ELFMAG, SELFMAG) != 0 ||
        bytes[EI_CLASS] != ELFCLASS64) {
        error = "not an ELF64 file";
        return false;
    }
    Elf64_Ehdr eh;
    std::memcpy(&eh, bytes.data(), sizeof eh);
    auto inside = [&](uint64_t offset, uint64_t size) {
        return offset <= bytes.size() && size <= bytes.size() - offset;
    };
    if (!inside(eh.e_shoff, uint64_t{eh.e_shnum} * sizeof(Elf64_Shdr))) {
        error = "truncated section table";
        return false;
    }
    std::vector<Elf64_Shdr> sections(eh.e_shnum);
    std::memcpy(sections.data(), bytes.data() + eh.e_shoff, sections.size() * sizeof(Elf64_Shdr));
    for (const Elf64_Shdr& sh : sections) {
        if (sh.sh_type != SHT_DYNSYM || sh.sh_link >= sections.size()) continue;
        const Elf64_Shdr& strtab = sections[sh.sh_link];
        if (!inside(sh.sh_offset, sh.sh_size) || !inside(strtab.sh_offset, strtab.sh_size) || !sh.sh_entsize) {
            error = "truncated symbol table";
            return false;
        }
        for (uint64_t i = 1; i < sh.sh_size / sh.sh_entsize; ++i) {
            Elf64_Sym sym;
            std::memcpy(&sym, bytes.data() + sh.sh_offset + i * sh.sh_entsize, sizeof sym);
            if (sym.st_name >= strtab.sh_size) continue;
            unsigned bind = ELF64_ST_BIND(sym.st_info);
            if (bind != STB_GLOBAL && bind != STB_WEAK) continue;
            if (ELF64_ST_VISIBILITY(sym.st_other) != STV_DEFAULT) continue;
            DynamicSymbol s;
            const char* name = bytes.data() + strtab.sh_offset + sym.st_name;
            s.name.assign(name, strnlen(name, strtab.sh_size - sym.st_name));
            s.defined = sym.st_shndx != SHN_UNDEF;
            s.weak = bind == STB_WEAK;
            s.function = ELF64_ST_TYPE(sym.st_info) == STT_FUNC;
            out.push_back(std::move(s));
        }
        return true;
    }
    error = "no dynamic symbol table";
    return false;
}

bool isToolchainSymbol(const std::string& name) {
    static const char* const names[] = {"_init",
                                        "_fini",
                                        "__bss_start",
                                        "_edata",
                                        "_end",
                                        "__end__",
                                        "_ITM_deregisterTMCloneTable",
                                        "_ITM_registerTMCloneTable",
                                        "__gmon_start__",
                                        "__cxa_finalize"};
    for (const char* n : names)
        if (name == n) return true;
    return false;
}

}  // namespace ptoplug::checker
