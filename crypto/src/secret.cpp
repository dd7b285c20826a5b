// SPDX-License-Identifier: Apache-2.0
// secret_bytes: a heap buffer that wipes its contents before releasing them.
#include <sealwire/crypto/secret.hpp>

#include <algorithm>

namespace sealwire::crypto {

secret_bytes::secret_bytes(std::size_t n) : data_(n ? new std::uint8_t[n]() : nullptr), size_(n) {}

secret_bytes::secret_bytes(std::span<const std::uint8_t> src) : secret_bytes(src.size()) {
  if (!src.empty()) std::memcpy(data_, src.data(), src.size());
}

secret_bytes& secret_bytes::operator=(secret_bytes&& other) noexcept {
  if (this != &other) {
    clear();
    data_ = other.data_;
    size_ = other.size_;
    other.data_ = nullptr;
    other.size_ = 0;
  }
  return *this;
}

void secret_bytes::clear() noexcept {
  if (data_ != nullptr) {
    ct::wipe(data_, size_);
    delete[] data_;
  }
  data_ = nullptr;
  size_ = 0;
}

void secret_bytes::resize(std::size_t n) {
  secret_bytes bigger(n);
  const std::size_t keep = std::min(n, size_);
  if (keep != 0) std::memcpy(bigger.data_, data_, keep);
  *this = std::move(bigger);
}

}  // namespace sealwire::crypto
