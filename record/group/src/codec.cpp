// SPDX-License-Identifier: Apache-2.0
// The MLS codec's reader and writer (RFC 9420 2.1, with RFC 8446 3's
// presentation language) and the codec_errc category.
#include <sealwire/crypto/ct.hpp>
#include <sealwire/record/group/codec.hpp>

#include <algorithm>
#include <cstring>
#include <string>

namespace sealwire::record::group {
namespace {

class codec_category_impl final : public std::error_category {
 public:
  const char* name() const noexcept override { return "sealwire.group.codec"; }
  std::string message(int ev) const override {
    switch (static_cast<codec_errc>(ev)) {
      case codec_errc::truncated: return "MLS decode: input truncated";
      case codec_errc::trailing_bytes: return "MLS decode: trailing bytes";
      case codec_errc::non_minimal_varint: return "MLS decode: variable-length integer not in its minimal form";
      case codec_errc::invalid_varint: return "MLS decode: variable-length integer with the reserved 0b11 prefix";
      case codec_errc::too_deep: return "MLS decode: vectors nested too deeply";
      case codec_errc::too_large: return "MLS codec: input, vector or element count over the limit";
      case codec_errc::unknown_value: return "MLS decode: unknown value of a selecting enum";
      case codec_errc::invalid_value: return "MLS decode: field value not allowed";
    }
    return "unknown sealwire.group.codec error " + std::to_string(ev);
  }
};

}  // namespace

const std::error_category& codec_category() noexcept {
  static const codec_category_impl category;
  return category;
}

// ---- reader ----

reader::reader(std::span<const std::uint8_t> in, const codec_limits& limits) noexcept
    : in_(in), own_{limits, 0, 0}, state_(&own_) {
  if (in.size() > limits.max_input) {
    fail(codec_errc::too_large);
    in_ = {};
  }
}

std::error_code reader::error() const noexcept {
  if (state_->error == 0) return {};
  return make_error_code(static_cast<codec_errc>(state_->error));
}

void reader::fail(codec_errc e) noexcept {
  if (state_->error == 0) state_->error = static_cast<int>(e);
}

std::span<const std::uint8_t> reader::take(std::size_t n) noexcept {
  if (!ok()) return {};
  if (n > remaining()) {
    fail(codec_errc::truncated);
    pos_ = in_.size();
    return {};
  }
  const auto s = in_.subspan(pos_, n);
  pos_ += n;
  return s;
}

std::uint8_t reader::u8() noexcept {
  const auto s = take(1);
  return s.empty() ? 0 : s[0];
}

std::uint16_t reader::u16() noexcept {
  const auto s = take(2);
  if (s.empty()) return 0;
  return static_cast<std::uint16_t>((s[0] << 8) | s[1]);
}

std::uint32_t reader::u32() noexcept {
  const auto s = take(4);
  if (s.empty()) return 0;
  return (std::uint32_t{s[0]} << 24) | (std::uint32_t{s[1]} << 16) | (std::uint32_t{s[2]} << 8) | s[3];
}

std::uint64_t reader::u64() noexcept {
  const auto s = take(8);
  std::uint64_t v = 0;
  for (const auto b : s) v = (v << 8) | b;
  return v;
}

// RFC 9420 2.1.2: the top two bits of the first byte give the length (00: 1
// byte, 01: 2, 10: 4; 11 is reserved), the other 6, 14 or 30 bits the value,
// which must use the fewest bytes that hold it.
std::uint32_t reader::varint() noexcept {
  const std::uint8_t first = u8();
  if (!ok()) return 0;
  const unsigned prefix = first >> 6;
  std::uint32_t v = first & 0x3fu;
  if (prefix == 0) return v;
  if (prefix == 3) {
    fail(codec_errc::invalid_varint);
    return 0;
  }
  const std::size_t more = prefix == 1 ? 1 : 3;
  const auto s = take(more);
  if (s.empty()) return 0;
  for (const auto b : s) v = (v << 8) | b;
  const std::uint32_t min = prefix == 1 ? 64 : 16384;
  if (v < min) {
    fail(codec_errc::non_minimal_varint);
    return 0;
  }
  return v;
}

void reader::fixed(std::span<std::uint8_t> out) noexcept {
  const auto s = take(out.size());
  if (s.empty() && !out.empty()) {
    std::fill(out.begin(), out.end(), std::uint8_t{0});
    return;
  }
  if (!s.empty()) std::memcpy(out.data(), s.data(), s.size());
}

std::vector<std::uint8_t> reader::opaque() {
  const std::uint32_t n = varint();
  const auto s = take(n);
  return {s.begin(), s.end()};
}

crypto::secret_bytes reader::opaque_secret() {
  const std::uint32_t n = varint();
  const auto s = take(n);
  return crypto::secret_bytes(s);
}

std::vector<std::uint8_t> reader::rest() {
  const auto s = take(remaining());
  return {s.begin(), s.end()};
}

bool reader::presence() noexcept {
  const std::uint8_t p = u8();
  if (p > 1) fail(codec_errc::invalid_value);
  return ok() && p == 1;
}

reader reader::nested() noexcept {
  const std::uint32_t n = varint();
  if (ok() && depth_ + 1 > state_->limits.max_depth) fail(codec_errc::too_deep);
  const auto s = take(n);
  return reader(s, state_, depth_ + 1);
}

bool reader::count_item() noexcept {
  if (state_->items >= state_->limits.max_items) {
    fail(codec_errc::too_large);
    return false;
  }
  ++state_->items;
  return true;
}

void reader::finish() noexcept {
  if (ok() && !empty()) fail(codec_errc::trailing_bytes);
}

// ---- writer ----

writer::~writer() { crypto::ct::wipe(buf_.data(), buf_.size()); }

std::error_code writer::error() const noexcept {
  if (error_ == 0) return {};
  return make_error_code(static_cast<codec_errc>(error_));
}

// Growth goes through here so the outgrown buffer is wiped before it is freed.
void writer::reserve_more(std::size_t n) {
  const std::size_t need = buf_.size() + n;
  if (need <= buf_.capacity()) return;
  std::vector<std::uint8_t> bigger;
  bigger.reserve(std::max(need, std::max<std::size_t>(64, buf_.capacity() * 2)));
  bigger.assign(buf_.begin(), buf_.end());
  crypto::ct::wipe(buf_.data(), buf_.size());
  buf_.swap(bigger);
}

void writer::u8(std::uint8_t v) {
  reserve_more(1);
  buf_.push_back(v);
}

void writer::u16(std::uint16_t v) {
  reserve_more(2);
  buf_.push_back(static_cast<std::uint8_t>(v >> 8));
  buf_.push_back(static_cast<std::uint8_t>(v));
}

void writer::u32(std::uint32_t v) {
  reserve_more(4);
  for (int shift = 24; shift >= 0; shift -= 8) buf_.push_back(static_cast<std::uint8_t>(v >> shift));
}

void writer::u64(std::uint64_t v) {
  reserve_more(8);
  for (int shift = 56; shift >= 0; shift -= 8) buf_.push_back(static_cast<std::uint8_t>(v >> shift));
}

void writer::varint(std::uint64_t v) {
  if (v > max_varint) {
    if (error_ == 0) error_ = static_cast<int>(codec_errc::too_large);
    return;
  }
  if (v < 64) {
    u8(static_cast<std::uint8_t>(v));
  } else if (v < 16384) {
    u16(static_cast<std::uint16_t>(0x4000u | v));
  } else {
    u32(static_cast<std::uint32_t>(0x80000000u | v));
  }
}

void writer::fixed(std::span<const std::uint8_t> in) {
  reserve_more(in.size());
  buf_.insert(buf_.end(), in.begin(), in.end());
}

void writer::opaque(std::span<const std::uint8_t> in) {
  varint(in.size());
  fixed(in);
}

// The contents were written first; their length prefix is slid in before them.
void writer::close_vector(std::size_t mark) {
  const std::size_t len = buf_.size() - mark;
  if (len > max_varint) {
    if (error_ == 0) error_ = static_cast<int>(codec_errc::too_large);
    return;
  }
  const std::size_t k = len < 64 ? 1 : len < 16384 ? 2 : 4;
  reserve_more(k);
  buf_.resize(buf_.size() + k);
  std::memmove(buf_.data() + mark + k, buf_.data() + mark, len);
  const auto v = static_cast<std::uint32_t>(len);
  if (k == 1) {
    buf_[mark] = static_cast<std::uint8_t>(v);
  } else if (k == 2) {
    buf_[mark] = static_cast<std::uint8_t>(0x40u | (v >> 8));
    buf_[mark + 1] = static_cast<std::uint8_t>(v);
  } else {
    buf_[mark] = static_cast<std::uint8_t>(0x80u | (v >> 24));
    buf_[mark + 1] = static_cast<std::uint8_t>(v >> 16);
    buf_[mark + 2] = static_cast<std::uint8_t>(v >> 8);
    buf_[mark + 3] = static_cast<std::uint8_t>(v);
  }
}

std::vector<std::uint8_t> writer::take() noexcept {
  std::vector<std::uint8_t> out;
  out.swap(buf_);
  return out;
}

}  // namespace sealwire::record::group
