#include "kernel_names.h"

#include <cxxabi.h>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <vector>

namespace cudajudge::detail {

namespace {

struct Symbol {
    uintptr_t start;
    uintptr_t size;
    std::string name;
};

// Every function symbol of one loaded object, including local ones (static kernels, kernels
// in anonymous namespaces) that the dynamic symbol table leaves out.
class SymbolTable {
public:
    explicit SymbolTable(const char* path, uintptr_t base) { load(path, base); }

    const Symbol* find(uintptr_t address) const {
        auto it = std::upper_bound(symbols_.begin(), symbols_.end(), address, [](uintptr_t a, const Symbol& s) { return a < s.start; });
        if (it == symbols_.begin()) return nullptr;
        --it;
        return address < it->start + std::max<uintptr_t>(it->size, 1) ? &*it : nullptr;
    }

private:
    void load(const char* path, uintptr_t base) {
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) return;
        struct stat st;
        void* map = (fstat(fd, &st) == 0) ? mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
        close(fd);
        if (map == MAP_FAILED) return;
        read_symbols(static_cast<const unsigned char*>(map), static_cast<size_t>(st.st_size), base);
        munmap(map, static_cast<size_t>(st.st_size));
        std::sort(symbols_.begin(), symbols_.end(), [](const Symbol& a, const Symbol& b) { return a.start < b.start; });
    }

    void read_symbols(const unsigned char* file, size_t size, uintptr_t base) {
        if (size < sizeof(Elf64_Ehdr)) return;
        const auto* header = reinterpret_cast<const Elf64_Ehdr*>(file);
        if (header->e_shoff == 0 || header->e_shoff + header->e_shnum * sizeof(Elf64_Shdr) > size) return;
        const auto* sections = reinterpret_cast<const Elf64_Shdr*>(file + header->e_shoff);
        for (unsigned i = 0; i < header->e_shnum; ++i) {
            const Elf64_Shdr& table = sections[i];
            if (table.sh_type != SHT_SYMTAB || table.sh_link >= header->e_shnum) continue;
            const Elf64_Shdr& strings = sections[table.sh_link];
            if (table.sh_offset + table.sh_size > size || strings.sh_offset + strings.sh_size > size) continue;
            const auto* symbols = reinterpret_cast<const Elf64_Sym*>(file + table.sh_offset);
            const char* names = reinterpret_cast<const char*>(file + strings.sh_offset);
            for (size_t k = 0; k < table.sh_size / sizeof(Elf64_Sym); ++k) {
                const Elf64_Sym& s = symbols[k];
                if (ELF64_ST_TYPE(s.st_info) != STT_FUNC || s.st_value == 0 || s.st_name >= strings.sh_size) continue;
                symbols_.push_back({base + s.st_value, s.st_size, names + s.st_name});
            }
        }
    }

    std::vector<Symbol> symbols_;
};

std::string demangle(const char* mangled) {
    int status = 0;
    char* text = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
    if (status != 0 || !text) return mangled;
    std::string result = text;
    std::free(text);
    return result;
}

// "void reduce<256>(float const*, float*, int)" -> "reduce<256>": the parameter list and a
// template's return type are noise in a diagnostic.
std::string short_name(const std::string& full) {
    std::string name = full;
    if (!name.empty() && name.back() == ')') {
        int depth = 0;
        for (size_t i = name.size(); i-- > 0;) {
            if (name[i] == ')') ++depth;
            if (name[i] == '(' && --depth == 0) {
                name.resize(i);
                break;
            }
        }
    }
    int depth = 0;
    size_t start = 0;
    for (size_t i = 0; i < name.size(); ++i) {
        char c = name[i];
        if (c == '<' || c == '(') ++depth;
        if (c == '>' || c == ')') --depth;
        if (c == ' ' && depth == 0) start = i + 1;
    }
    return name.substr(start);
}

std::mutex names_mutex;

const SymbolTable* table_for(const Dl_info& info) {
    static std::map<std::string, SymbolTable>* tables = new std::map<std::string, SymbolTable>;
    auto it = tables->find(info.dli_fname);
    if (it == tables->end())
        it = tables->emplace(info.dli_fname, SymbolTable(info.dli_fname, reinterpret_cast<uintptr_t>(info.dli_fbase))).first;
    return &it->second;
}

std::string lookup(const void* address, bool exact) {
    Dl_info info{};
    if (!dladdr(address, &info) || !info.dli_fname) return "";
    std::lock_guard<std::mutex> lock(names_mutex);
    const Symbol* symbol = table_for(info)->find(reinterpret_cast<uintptr_t>(address));
    if (symbol && (!exact || symbol->start == reinterpret_cast<uintptr_t>(address))) return short_name(demangle(symbol->name.c_str()));
    if (info.dli_sname && (!exact || info.dli_saddr == address)) return short_name(demangle(info.dli_sname));
    return "";
}

}  // namespace

std::string kernel_display_name(const void* kernel) {
    static std::map<const void*, std::string>* known = new std::map<const void*, std::string>;
    {
        std::lock_guard<std::mutex> lock(names_mutex);
        auto it = known->find(kernel);
        if (it != known->end()) return it->second;
    }
    std::string name = lookup(kernel, true);
    if (name.empty()) {
        char text[40];
        std::snprintf(text, sizeof text, "kernel@%p", kernel);
        name = text;
    }
    std::lock_guard<std::mutex> lock(names_mutex);
    return known->emplace(kernel, name).first->second;
}

std::string function_name_at(const void* pc) { return pc ? lookup(pc, false) : ""; }

}  // namespace cudajudge::detail
