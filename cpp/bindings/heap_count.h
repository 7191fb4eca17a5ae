// The bytes the module holds through operator new right now, exactly as requested (see
// heap_count.cpp for why the allocator's own figure will not do).
#pragma once
#include <cstddef>

namespace bind {
std::size_t heap_bytes_live();
}  // namespace bind
