// SPDX-License-Identifier: Apache-2.0
// The strict codec of MLS's wire structures: RFC 8446 3's presentation
// language with RFC 9420 2.1.2's variable-length integer length prefixes.
// Every structure header (framing.hpp, key_package.hpp, ...) encodes and
// decodes through reader and writer; serialize and deserialize are the
// byte-level entry points.
#pragma once

#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/result.hpp>
#include <sealwire/crypto/secret.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <system_error>
#include <type_traits>
#include <utility>
#include <vector>

namespace sealwire::record::group {

// codec_errc lists why a decoder refused its input (or, for too_large, an
// encoder its structure). Decoding stops at the first error; the decoded
// value is then never returned.
enum class codec_errc {
  truncated = 1,       // the input ended inside a field or a length-prefixed vector
  trailing_bytes,      // bytes left after the structure (or inside a vector after its last element)
  non_minimal_varint,  // a length prefix not in its shortest form (RFC 9420 2.1.2)
  invalid_varint,      // a length prefix starting with the reserved bits 0b11 (RFC 9420 2.1.2)
  too_deep,            // vectors nested deeper than codec_limits::max_depth
  too_large,           // over codec_limits::max_input or max_items, or a vector of 2^30 bytes or more
  unknown_value,       // a value of an enum the structure selects on that RFC 9420 does not define
  invalid_value,       // a field value the structure forbids (optional presence not 0/1, non-zero padding)
};

// codec_category is the error category of codec_errc values.
[[nodiscard]] SEALWIRE_API const std::error_category& codec_category() noexcept;

// make_error_code makes codec_errc values usable as std::error_code.
[[nodiscard]] inline std::error_code make_error_code(codec_errc e) noexcept {
  return {static_cast<int>(e), codec_category()};
}

}  // namespace sealwire::record::group

template <>
struct std::is_error_code_enum<sealwire::record::group::codec_errc> : std::true_type {};

namespace sealwire::record::group {

// max_varint is the largest value a variable-length integer holds (2^30 - 1,
// RFC 9420 2.1.2), so also the longest vector the codec reads or writes.
inline constexpr std::uint32_t max_varint = (std::uint32_t{1} << 30) - 1;

// codec_limits bounds what one decode may consume. The defaults admit every
// message of RFC 9420's interop vectors with a wide margin, and the ratchet
// tree of a group of some ten thousand members (each leaf's capability and
// extension lists count as items too; raise max_items for larger groups).
// max_items bounds memory as well as time: a
// decoded element takes more memory than its encoding (a blank tree node is
// one byte on the wire and a few hundred bytes decoded), so raise it only
// with max_input in proportion.
struct codec_limits {
  std::size_t max_input = std::size_t{16} << 20;  // bytes in one decoded input (16 MiB)
  std::size_t max_depth = 16;                     // vectors nested inside one another
  std::size_t max_items = std::size_t{1} << 18;   // vector elements in one decode, all vectors together
};

// reader decodes one input. Its errors are sticky: after the first one every
// read returns zero or empty and ok() is false, so a decoder reads a whole
// structure and checks ok() once. It never reads outside its input, and a
// length prefix is checked against the bytes left before anything is
// allocated for it.
class SEALWIRE_API reader {
 public:
  // A reader of `in`, refusing it (too_large) when over limits.max_input.
  explicit reader(std::span<const std::uint8_t> in, const codec_limits& limits = {}) noexcept;
  reader(const reader&) = delete;
  reader& operator=(const reader&) = delete;

  // ok reports whether no error happened so far.
  [[nodiscard]] bool ok() const noexcept { return state_->error == 0; }
  // error is the first error, or an empty error_code.
  [[nodiscard]] std::error_code error() const noexcept;
  // fail records e unless an error was already recorded.
  void fail(codec_errc e) noexcept;
  // remaining is the number of bytes not read yet in this reader's span.
  [[nodiscard]] std::size_t remaining() const noexcept { return in_.size() - pos_; }
  // empty reports whether this reader's span is fully read.
  [[nodiscard]] bool empty() const noexcept { return remaining() == 0; }

  // u8 reads a uint8 (0 on failure).
  std::uint8_t u8() noexcept;
  // u16 reads a big-endian uint16 (0 on failure).
  std::uint16_t u16() noexcept;
  // u32 reads a big-endian uint32 (0 on failure).
  std::uint32_t u32() noexcept;
  // u64 reads a big-endian uint64 (0 on failure).
  std::uint64_t u64() noexcept;
  // varint reads an RFC 9420 2.1.2 variable-length integer, refusing the
  // 0b11 prefix (invalid_varint) and non-minimal forms (non_minimal_varint).
  std::uint32_t varint() noexcept;
  // fixed reads out.size() bytes into out (zeros on failure).
  void fixed(std::span<std::uint8_t> out) noexcept;
  // opaque reads an opaque<V>: a varint length, then that many bytes.
  [[nodiscard]] std::vector<std::uint8_t> opaque();
  // opaque_secret reads an opaque<V> holding key material into a wiped-on-
  // destruction buffer.
  [[nodiscard]] crypto::secret_bytes opaque_secret();
  // rest reads every byte left in this reader's span.
  [[nodiscard]] std::vector<std::uint8_t> rest();
  // presence reads optional<T>'s presence octet: true for 1, false for 0,
  // and invalid_value (false) for anything else (RFC 9420 2.1.1).
  [[nodiscard]] bool presence() noexcept;

  // vector reads a varint-prefixed vector: `element(sub)` is called with a
  // reader of the vector's bytes until they are consumed, each call decoding
  // one element. The elements must fill the vector exactly; nesting deeper
  // than max_depth or more than max_items elements fail.
  template <class F>
  void vector(F&& element) {
    reader sub = nested();
    while (sub.ok() && !sub.empty()) {
      if (!sub.count_item()) break;
      element(sub);
    }
  }

  // finish fails with trailing_bytes when bytes are left in this reader.
  void finish() noexcept;

 private:
  struct state {
    codec_limits limits;
    int error = 0;
    std::size_t items = 0;
  };
  reader(std::span<const std::uint8_t> in, state* s, std::size_t depth) noexcept
      : in_(in), state_(s), depth_(depth) {}
  // take returns a view of the next n bytes, or an empty span and truncated.
  std::span<const std::uint8_t> take(std::size_t n) noexcept;
  // nested reads a varint length and returns a reader of that many bytes,
  // one level deeper.
  reader nested() noexcept;
  bool count_item() noexcept;

  std::span<const std::uint8_t> in_;
  std::size_t pos_ = 0;
  state own_{};
  state* state_;
  std::size_t depth_ = 0;
};

// writer encodes into a growing buffer. Buffers it outgrows and the one it
// holds when destroyed are wiped, so encoding key material (GroupSecrets,
// PathSecret) leaves no stray copies. Its error (a vector of 2^30 bytes or
// more, too_large) is sticky like the reader's.
class SEALWIRE_API writer {
 public:
  writer() = default;
  ~writer();
  writer(const writer&) = delete;
  writer& operator=(const writer&) = delete;

  // ok reports whether no error happened so far.
  [[nodiscard]] bool ok() const noexcept { return error_ == 0; }
  // error is the first error, or an empty error_code.
  [[nodiscard]] std::error_code error() const noexcept;
  // fail records e unless an error was already recorded (an encoder uses it
  // for a structure whose fields contradict each other).
  void fail(codec_errc e) noexcept {
    if (error_ == 0) error_ = static_cast<int>(e);
  }

  // u8 writes a uint8.
  void u8(std::uint8_t v);
  // u16 writes a big-endian uint16.
  void u16(std::uint16_t v);
  // u32 writes a big-endian uint32.
  void u32(std::uint32_t v);
  // u64 writes a big-endian uint64.
  void u64(std::uint64_t v);
  // varint writes v in RFC 9420 2.1.2's shortest form; v over max_varint fails (too_large).
  void varint(std::uint64_t v);
  // fixed writes the bytes of `in` with no length prefix.
  void fixed(std::span<const std::uint8_t> in);
  // opaque writes an opaque<V>: the varint length, then the bytes.
  void opaque(std::span<const std::uint8_t> in);
  // presence writes optional<T>'s presence octet.
  void presence(bool present) { u8(present ? 1 : 0); }

  // vector writes a varint-prefixed vector whose contents `body()` writes.
  template <class F>
  void vector(F&& body) {
    const std::size_t mark = buf_.size();
    body();
    close_vector(mark);
  }

  // data views what was written so far.
  [[nodiscard]] std::span<const std::uint8_t> data() const noexcept { return buf_; }
  // take moves the encoding out (the caller owns it from then on) and empties the writer.
  [[nodiscard]] std::vector<std::uint8_t> take() noexcept;

 private:
  void reserve_more(std::size_t n);
  void close_vector(std::size_t mark);

  std::vector<std::uint8_t> buf_;
  int error_ = 0;
};

// serialize encodes v (any structure with an encode(writer&, const T&)
// overload) into bytes; it fails only with too_large.
template <class T>
[[nodiscard]] result<std::vector<std::uint8_t>> serialize(const T& v) {
  writer w;
  encode(w, v);
  if (!w.ok()) return w.error();
  return w.take();
}

// deserialize decodes exactly one T from `in` (any structure with a
// decode(reader&, T&) overload): a truncated input, trailing bytes, or any
// field RFC 9420 forbids is an error and no value is returned.
template <class T>
[[nodiscard]] result<T> deserialize(std::span<const std::uint8_t> in, const codec_limits& limits = {}) {
  reader r(in, limits);
  T v{};
  decode(r, v);
  r.finish();
  if (!r.ok()) return r.error();
  return v;
}

}  // namespace sealwire::record::group
