// SPDX-License-Identifier: Apache-2.0
// Opaque state storage for sealwire's keyed objects (aead.hpp,
// poly1305.hpp, stream_cipher.hpp): an implementation detail of those
// headers, which are where to start.
#pragma once

#include <cstddef>
#include <cstdint>

namespace sealwire::crypto::detail {

// state_storage holds a state of at most Size bytes that wants 64-byte
// alignment (its vector kernels load and store it whole), inside an object
// that may itself be less aligned: a GCC 12 coroutine frame ignores the
// alignment its locals ask for, and so may a custom allocator. It keeps 63
// spare bytes and places the state at the first 64-byte boundary, so the
// state's address depends on the object's: the owning classes move their
// state field by field and never copy the storage as bytes.
template <std::size_t Size>
class state_storage {
 public:
  // get is the 64-byte aligned address of the state.
  [[nodiscard]] void* get() noexcept { return bytes_ + offset(); }
  // get is the 64-byte aligned address of the state, read only.
  [[nodiscard]] const void* get() const noexcept { return bytes_ + offset(); }

 private:
  [[nodiscard]] std::size_t offset() const noexcept {
    return static_cast<std::size_t>(-reinterpret_cast<std::uintptr_t>(bytes_) & 63u);
  }
  unsigned char bytes_[Size + 63];
};

}  // namespace sealwire::crypto::detail
