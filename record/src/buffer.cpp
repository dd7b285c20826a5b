// SPDX-License-Identifier: Apache-2.0
// The connection's byte buffers: fixed capacity, allocated when data flows,
// never value-initialised, wiped (those holding plaintext) when released.
#include <sealwire/crypto/ct.hpp>
#include <sealwire/record/connection.hpp>

#include <new>

namespace sealwire::record::detail {

byte_buffer::byte_buffer(byte_buffer&& o) noexcept
    : p_(std::move(o.p_)), cap_(o.cap_), high_(o.high_), wipe_(o.wipe_) {
  o.high_ = 0;
}

byte_buffer& byte_buffer::operator=(byte_buffer&& o) noexcept {
  if (this != &o) {
    release();
    p_ = std::move(o.p_);
    cap_ = o.cap_;
    high_ = o.high_;
    wipe_ = o.wipe_;
    o.high_ = 0;
  }
  return *this;
}

bool byte_buffer::allocate() noexcept {
  if (p_ || cap_ == 0) return p_ != nullptr;
  p_.reset(new (std::nothrow) std::uint8_t[cap_]);
  high_ = 0;
  return p_ != nullptr;
}

void byte_buffer::release() noexcept {
  if (!p_) return;
  if (wipe_) crypto::ct::wipe(p_.get(), high_);
  p_.reset();
  high_ = 0;
}

}  // namespace sealwire::record::detail
