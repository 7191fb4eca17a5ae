// Exact count of the bytes the module holds through operator new, for attn.heapAllocated().
//
// Why not mallinfo(): an allocator may hand out a free block a few bytes larger than asked for
// rather than split it, so the bytes "in use" it reports depend on the history of the free list
// (the same call, repeated, moved it by ±8 to ±24 bytes). A leak check needs the bytes asked
// for and not yet given back, which only the allocation functions themselves know. Every C++
// allocation of the engine and the bindings goes through these replacements: each block carries
// its size in a header in front of it (a multiple of the alignment, so the pointer handed out
// stays aligned as the caller asked).
//
// They also note the size of an allocation that fails (and what was live then), so that a call
// that runs out of wasm memory can say how many bytes it needed (bind::run, call.h). A block that
// could never fit in the wasm memory (its size above the memory's maximum) fails here, before the
// allocator sees it: emmalloc adds a size to an address to see whether it fits, and that sum must
// not wrap past 2^32 (with the memory at most 2 GiB, wasm_module.cmake, it cannot).
#include <cstddef>
#include <cstdlib>
#include <new>

#ifdef __EMSCRIPTEN__
#include <emscripten/heap.h>
#endif

#include "heap_count.h"

namespace {

std::size_t live_bytes = 0;
bind::FailedAllocation failed;

constexpr std::size_t kHeader = 16;  // keeps the default 16-byte alignment of new

std::size_t largest_block();  // below

void* allocate(std::size_t size, std::size_t align) {
  const std::size_t header = align > kHeader ? align : kHeader;
  void* block = nullptr;
  if (size <= largest_block() - header - align)
    block = align > kHeader ? std::aligned_alloc(align, (size + header + align - 1) / align * align)
                            : std::malloc(size + header);
  if (block == nullptr) {
    failed = {size, live_bytes};
    return nullptr;
  }
  unsigned char* user = static_cast<unsigned char*>(block) + header;
  reinterpret_cast<std::size_t*>(user)[-1] = size;
  live_bytes += size;
  return user;
}

// The largest size worth asking the allocator for: the wasm memory's maximum (natively, any).
std::size_t largest_block() {
#ifdef __EMSCRIPTEN__
  return emscripten_get_heap_max();
#else
  return static_cast<std::size_t>(-1);
#endif
}

void release(void* p, std::size_t align) {
  if (p == nullptr) return;
  const std::size_t header = align > kHeader ? align : kHeader;
  unsigned char* user = static_cast<unsigned char*>(p);
  live_bytes -= reinterpret_cast<std::size_t*>(user)[-1];
  std::free(user - header);
}

void* allocate_or_throw(std::size_t size, std::size_t align) {
  void* p = allocate(size, align);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

constexpr std::size_t kPlain = alignof(std::max_align_t);

}  // namespace

namespace bind {
std::size_t heap_bytes_live() { return live_bytes; }
FailedAllocation last_failed_allocation() { return failed; }
void forget_failed_allocation() { failed = {}; }
#ifdef __EMSCRIPTEN__
std::size_t memory_bytes_now() { return emscripten_get_heap_size(); }
std::size_t memory_bytes_max() { return emscripten_get_heap_max(); }
#else
std::size_t memory_bytes_now() { return 0; }
std::size_t memory_bytes_max() { return 0; }
#endif
}  // namespace bind

void* operator new(std::size_t size) { return allocate_or_throw(size, kPlain); }
void* operator new[](std::size_t size) { return allocate_or_throw(size, kPlain); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return allocate(size, kPlain); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return allocate(size, kPlain); }
void* operator new(std::size_t size, std::align_val_t align) {
  return allocate_or_throw(size, static_cast<std::size_t>(align));
}
void* operator new[](std::size_t size, std::align_val_t align) {
  return allocate_or_throw(size, static_cast<std::size_t>(align));
}
void* operator new(std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
  return allocate(size, static_cast<std::size_t>(align));
}
void* operator new[](std::size_t size, std::align_val_t align, const std::nothrow_t&) noexcept {
  return allocate(size, static_cast<std::size_t>(align));
}

void operator delete(void* p) noexcept { release(p, kPlain); }
void operator delete[](void* p) noexcept { release(p, kPlain); }
void operator delete(void* p, std::size_t) noexcept { release(p, kPlain); }
void operator delete[](void* p, std::size_t) noexcept { release(p, kPlain); }
void operator delete(void* p, const std::nothrow_t&) noexcept { release(p, kPlain); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { release(p, kPlain); }
void operator delete(void* p, std::align_val_t align) noexcept { release(p, static_cast<std::size_t>(align)); }
void operator delete[](void* p, std::align_val_t align) noexcept { release(p, static_cast<std::size_t>(align)); }
void operator delete(void* p, std::size_t, std::align_val_t align) noexcept {
  release(p, static_cast<std::size_t>(align));
}
void operator delete[](void* p, std::size_t, std::align_val_t align) noexcept {
  release(p, static_cast<std::size_t>(align));
}
void operator delete(void* p, std::align_val_t align, const std::nothrow_t&) noexcept {
  release(p, static_cast<std::size_t>(align));
}
void operator delete[](void* p, std::align_val_t align, const std::nothrow_t&) noexcept {
  release(p, static_cast<std::size_t>(align));
}
