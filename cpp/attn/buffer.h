// Scratch memory for the kernels: a float buffer that grows without zero-filling. std::vector
// value-initialises every element it grows by, so a vector resized between a small call and a
// large one (a 64-column pack, then a 2048-column one) re-zeroes the difference on every call:
// a memset pass the profile showed at 2.5% of a forward. Every user writes before it reads.
#pragma once
#include <algorithm>
#include <cstddef>
#include <memory>
#include <utility>

namespace attn {

class FloatBuffer {
 public:
  FloatBuffer() = default;
  FloatBuffer(const FloatBuffer& other) { *this = other; }
  FloatBuffer& operator=(const FloatBuffer& other) {
    if (this != &other) {
      resize(other.size_);
      std::copy_n(other.data_.get(), other.size_, data_.get());
    }
    return *this;
  }
  FloatBuffer(FloatBuffer&& other) noexcept { *this = std::move(other); }
  FloatBuffer& operator=(FloatBuffer&& other) noexcept {
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
      data_.reset();  // free first, so growth never holds the old and the new block at once
      size_ = capacity_ = 0;
      data_.reset(new float[n]);
      capacity_ = n;
    }
    size_ = n;
  }
  float* data() { return data_.get(); }
  const float* data() const { return data_.get(); }
  std::size_t size() const { return size_; }
  float& operator[](std::size_t i) { return data_[i]; }
  const float& operator[](std::size_t i) const { return data_[i]; }

 private:
  std::unique_ptr<float[]> data_;
  std::size_t size_ = 0, capacity_ = 0;
};

}  // namespace attn
