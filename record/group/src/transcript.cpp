// SPDX-License-Identifier: Apache-2.0
// RFC 9420 8.2 transcript hashes and the 6.1 confirmation tag.
#include <sealwire/record/group/transcript.hpp>

#include <sealwire/crypto/ct.hpp>
#include <sealwire/record/group/group_error.hpp>

#include <array>

namespace sealwire::record::group {

result<std::size_t> confirmed_transcript_hash(const suite_algorithms& suite, std::span<std::uint8_t> out,
                                              bytes_view interim_before, const authenticated_content& commit) {
  writer w;
  encode_confirmed_transcript_hash_input(w, commit.wire_format, commit.content, commit.auth.signature);
  if (!w.ok()) return w.error();
  return suite.digest(out, {interim_before, w.data()});
}

result<std::size_t> interim_transcript_hash(const suite_algorithms& suite, std::span<std::uint8_t> out,
                                            bytes_view confirmed, bytes_view confirmation_tag) {
  writer w;
  encode_interim_transcript_hash_input(w, confirmation_tag);
  if (!w.ok()) return w.error();
  return suite.digest(out, {confirmed, w.data()});
}

std::size_t compute_confirmation_tag(const suite_algorithms& suite, std::span<std::uint8_t> out,
                                     bytes_view confirmation_key, bytes_view confirmed_transcript_hash) noexcept {
  suite.mac(out, confirmation_key, confirmed_transcript_hash);
  return suite.hash_size();
}

result<void> verify_confirmation_tag(const suite_algorithms& suite, bytes_view tag, bytes_view confirmation_key,
                                     bytes_view confirmed_transcript_hash) noexcept {
  std::array<std::uint8_t, max_hash_size> expected{};
  const std::size_t n = compute_confirmation_tag(suite, expected, confirmation_key, confirmed_transcript_hash);
  if (!crypto::ct::equal(tag, bytes_view(expected).first(n))) return group_errc::invalid_confirmation_tag;
  return {};
}

}  // namespace sealwire::record::group
