// SPDX-License-Identifier: Apache-2.0
// The connection's byte buffers: fixed capacity, never value-initialised,
// wiped when freed.
#include <sealwire/crypto/ct.hpp>
#include <sealwire/record/connection.hpp>

namespace sealwire::record::detail {

byte_buffer::byte_buffer(std::size_t capacity) : p_(new std::uint8_t[capacity]), cap_(capacity) {}
byte_buffer::byte_buffer(byte_buffer&& o) noexcept : p_(std::move(o.p_)), cap_(o.cap_), high_(o.high_) {
  o.cap_ = o.high_ = 0;
}
byte_buffer& byte_buffer::operator=(byte_buffer&& o) noexcept {
  if (this != &o) {
    if (p_) crypto::ct::wipe(p_.get(), high_);
    p_ = std::move(o.p_);
    cap_ = o.cap_;
    high_ = o.high_;
    o.cap_ = o.high_ = 0;
  }
  return *this;
}
byte_buffer::~byte_buffer() {
  if (p_) crypto::ct::wipe(p_.get(), high_);
}

}  // namespace sealwire::record::detail
