// SPDX-License-Identifier: Apache-2.0
// BLAKE2b (RFC 7693): unkeyed and keyed hashing (keys up to 64 bytes) with
// 1- to 64-byte output, incremental and one-shot. A primitive for protocols
// that name BLAKE2b; for encryption start from box.hpp or hpke/single_shot.hpp.
#pragma once

#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/result.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace sealwire::crypto {

// blake2b hashes a message given in pieces of any size. Whole blocks go from
// the input straight to the compression function; only the last, possibly
// full, block is buffered (it is compressed with the final flag). Copy the
// object to snapshot a hash mid-stream. The state, which in keyed mode holds
// the key, is wiped by finish and on destruction.
class SEALWIRE_API blake2b {
 public:
  // max_out_size is the longest digest in bytes.
  static constexpr std::size_t max_out_size = 64;
  // max_key_size is the longest key in bytes.
  static constexpr std::size_t max_key_size = 64;
  // block_size is the compression function's block in bytes.
  static constexpr std::size_t block_size = 128;

  blake2b() noexcept = default;
  // Copying snapshots the hash so far; both copies may continue.
  blake2b(const blake2b&) noexcept = default;
  // Copy assignment snapshots the hash so far, as the copy constructor does.
  blake2b& operator=(const blake2b&) noexcept = default;
  ~blake2b();

  // init starts a hash with an out_size-byte digest (RFC 7693 2.5: the digest
  // length is part of the parameter block, so a shorter digest is not a
  // prefix of a longer one), keyed when key is not empty. Errors:
  // invalid_argument (out_size not 1-64), invalid_key (key over 64 bytes);
  // the object is then left uninitialised.
  [[nodiscard]] result<void> init(std::size_t out_size, std::span<const std::uint8_t> key = {}) noexcept;

  // update absorbs message bytes in pieces of any size. Calling it before a
  // successful init, or after finish, is a contract failure.
  void update(std::span<const std::uint8_t> in) noexcept;

  // finish writes the digest; out.size() must equal init's out_size (a
  // contract). The state is wiped: init again to hash another message.
  void finish(std::span<std::uint8_t> out) noexcept;

  // hash computes the out.size()-byte digest of a whole message, keyed when
  // key is not empty. Errors as init.
  [[nodiscard]] static result<void> hash(std::span<std::uint8_t> out, std::span<const std::uint8_t> in,
                                         std::span<const std::uint8_t> key = {}) noexcept;

  // provider names the compression function that runs ("portable").
  [[nodiscard]] static std::string_view provider() noexcept;

 private:
  std::uint64_t h_[8] = {};
  std::uint64_t t_[2] = {};  // RFC 7693 "t": bytes compressed so far, 128 bits, low word first
  std::uint8_t buf_[block_size] = {};
  std::size_t buf_len_ = 0;
  std::size_t out_size_ = 0;  // 0 until init succeeds, and again after finish
};

}  // namespace sealwire::crypto
