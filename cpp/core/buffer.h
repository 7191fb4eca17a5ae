// Scratch memory for the kernels: a buffer that grows without zero-filling, and the list of the
// buffers a thread keeps between calls (scratch), so that a top-level call can give them back.
//
// Why not std::vector: it value-initialises every element it grows by, so a vector resized
// between a small call and a large one (a 64-column pack, then a 2048-column one) re-zeroes the
// difference on every call: a memset pass the profile showed at 2.5% of a forward. Every user
// writes before it reads.
//
// Why the list: the kernels keep their packing buffers in thread_local variables so that the
// many matmuls of one call reuse them. Grow-only, they used to keep the largest call's size for
// good (3.7 MB after one large forward and backward), so the heap was not where it was before
// the call. release_scratch() frees every buffer declared as Scratch<...>; the bindings call it
// when a call from JavaScript ends (bind::run), a native caller when it likes.
#pragma once
#include <algorithm>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>

namespace attn {

template <class T>
class Buffer {
 public:
  Buffer() = default;
  Buffer(const Buffer& other) { *this = other; }
  Buffer& operator=(const Buffer& other) {
    if (this != &other) {
      resize(other.size_);
      std::copy_n(other.data_.get(), other.size_, data_.get());
    }
    return *this;
  }
  Buffer(Buffer&& other) noexcept { *this = std::move(other); }
  Buffer& operator=(Buffer&& other) noexcept {
    if (this != &other) {
      data_ = std::move(other.data_);
      size_ = other.size_;
      capacity_ = other.capacity_;
      other.size_ = other.capacity_ = 0;  // an empty buffer, never a null pointer with a capacity
    }
    return *this;
  }

  /// Sets the size to n. The contents are unspecified afterwards (not kept when it grows). If the
  /// allocation fails (std::bad_alloc) the buffer is left empty, so a later smaller call
  /// allocates again instead of writing through a null pointer.
  void resize(std::size_t n) {
    if (n > capacity_) {
      release();  // free first, so growth never holds the old and the new block at once
      data_.reset(new T[n]);
      capacity_ = n;
    }
    size_ = n;
  }
  /// Sets the size to n with every element equal to value.
  void assign(std::size_t n, T value) {
    resize(n);
    std::fill_n(data_.get(), n, value);
  }
  /// Frees the storage: the buffer is empty, as if new.
  void release() noexcept {
    data_.reset();
    size_ = capacity_ = 0;
  }
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  std::size_t size() const { return size_; }
  /// Bytes allocated (the largest size since the last release).
  std::size_t capacity_bytes() const { return capacity_ * sizeof(T); }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }

 private:
  std::unique_ptr<T[]> data_;
  std::size_t size_ = 0, capacity_ = 0;
};

using FloatBuffer = Buffer<float>;

namespace scratch_detail {

// One entry of this thread's list of scratch buffers: intrusive (linked through the entries
// themselves), so that joining the list never allocates and heapAllocated() never counts it.
struct Entry {
  Entry* prev = nullptr;
  Entry* next = nullptr;
  void* object = nullptr;
  void (*release)(void*) noexcept = nullptr;
  std::size_t (*bytes)(const void*) noexcept = nullptr;
};

inline thread_local Entry* first = nullptr;

// The buffer a scratch object holds: itself, or the panels of a packed matrix (PackedB).
template <class T>
Buffer<T>& storage(Buffer<T>& b) {
  return b;
}
template <class Packed>
auto storage(Packed& p) -> decltype((p.panels)) {
  return p.panels;
}

}  // namespace scratch_detail

/// T (a Buffer, or a PackedB) that a thread keeps between calls: declare it thread_local.
/// It joins this thread's scratch list when constructed and leaves it when destroyed, and is
/// freed by release_scratch(). Its contents must never be needed by a later top-level call
/// (each call fills its scratch before reading it).
template <class T>
class Scratch : public T {
 public:
  Scratch() noexcept {
    entry_.object = &scratch_detail::storage(static_cast<T&>(*this));
    using B = std::remove_reference_t<decltype(scratch_detail::storage(static_cast<T&>(*this)))>;
    entry_.release = [](void* o) noexcept { static_cast<B*>(o)->release(); };
    entry_.bytes = [](const void* o) noexcept { return static_cast<const B*>(o)->capacity_bytes(); };
    entry_.next = scratch_detail::first;
    if (entry_.next) entry_.next->prev = &entry_;
    scratch_detail::first = &entry_;
  }
  ~Scratch() {
    if (entry_.prev) entry_.prev->next = entry_.next;
    else scratch_detail::first = entry_.next;
    if (entry_.next) entry_.next->prev = entry_.prev;
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

 private:
  scratch_detail::Entry entry_;
};

/// Frees every scratch buffer of this thread. Call it between top-level calls only: inside
/// a call, a kernel may hold a pointer into one.
inline void release_scratch() noexcept {
  for (scratch_detail::Entry* e = scratch_detail::first; e; e = e->next) e->release(e->object);
}

/// Bytes the scratch buffers of this thread hold right now.
inline std::size_t scratch_bytes() noexcept {
  std::size_t total = 0;
  for (const scratch_detail::Entry* e = scratch_detail::first; e; e = e->next) total += e->bytes(e->object);
  return total;
}

}  // namespace attn
