#pragma once
// Declarations for the generated presets_data.cpp (see embed_presets.cmake).
#include <cstddef>

namespace envelope::embedded_presets {

struct Entry {
    const char* folder;  // "models", "chips", "systems", "scenarios"
    const char* key;     // file name without .json
    const char* text;    // the file's contents
};

extern const Entry kEntries[];
extern const std::size_t kCount;

}  // namespace envelope::embedded_presets
