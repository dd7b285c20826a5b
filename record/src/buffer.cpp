// SPDX-License-Identifier: Apache-2.0
// The connection's byte buffers: fixed capacity, allocated when data flows,
// never value-initialised, wiped (those holding plaintext) when released.
#include <sealwire/crypto/ct.hpp>
#include <sealwire/record/connection.hpp>

#include <algorithm>
#include <cstring>
#include <new>

namespace sealwire::record::detail {

byte_buffer::byte_buffer(byte_buffer&& o) noexcept
    : p_(std::move(o.p_)), cap_(o.cap_), size_(o.size_), high_(o.high_), wipe_(o.wipe_) {
  o.size_ = 0;
  o.high_ = 0;
}

byte_buffer& byte_buffer::operator=(byte_buffer&& o) noexcept {
  if (this != &o) {
    release();
    p_ = std::move(o.p_);
    cap_ = o.cap_;
    size_ = o.size_;
    high_ = o.high_;
    wipe_ = o.wipe_;
    o.size_ = 0;
    o.high_ = 0;
  }
  return *this;
}

bool byte_buffer::allocate() noexcept { return cap_ != 0 && reserve(cap_, size_); }

bool byte_buffer::reserve(std::size_t n, std::size_t keep) noexcept {
  if (n > cap_) return false;
  if (p_ && n <= size_) return true;
  const std::size_t size = p_ ? std::min(cap_, std::max(n, 2 * size_)) : std::max<std::size_t>(n, 1);
  std::unique_ptr<std::uint8_t[]> p(new (std::nothrow) std::uint8_t[size]);
  if (!p) return false;
  if (p_) {
    std::memcpy(p.get(), p_.get(), std::min(keep, size_));
    if (wipe_) crypto::ct::wipe(p_.get(), high_);
  }
  p_ = std::move(p);
  size_ = size;
  high_ = std::min(high_, keep);
  return true;
}

void byte_buffer::release() noexcept {
  if (!p_) return;
  if (wipe_) crypto::ct::wipe(p_.get(), high_);
  p_.reset();
  size_ = 0;
  high_ = 0;
}

}  // namespace sealwire::record::detail
