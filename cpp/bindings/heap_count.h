// The bytes the module holds through operator new right now, exactly as requested (see
// heap_count.cpp for why the allocator's own figure will not do).
#pragma once
#include <cstddef>

namespace bind {
std::size_t heap_bytes_live();

/// The last allocation that failed: its size and the bytes live when it was asked for (both 0
/// when none has failed since forget_failed_allocation()). Kept so that an out-of-memory error
/// can say how much the call needed, not just std::bad_alloc.
struct FailedAllocation {
  std::size_t bytes = 0;
  std::size_t live = 0;
};
FailedAllocation last_failed_allocation();
void forget_failed_allocation();

/// The size of the wasm memory now and the most it can grow to (native builds: 0, 0).
std::size_t memory_bytes_now();
std::size_t memory_bytes_max();
}  // namespace bind
