// SPDX-License-Identifier: Apache-2.0
// The transcript hashes of RFC 9420 8.2 and the confirmation tag of 6.1:
// what a commit adds to the confirmed and interim transcript hashes, and the
// MAC that proves the committer reached the same epoch.
#pragma once

#include <sealwire/crypto/bytes.hpp>
#include <sealwire/crypto/export.hpp>
#include <sealwire/crypto/result.hpp>
#include <sealwire/record/group/cipher_suite.hpp>
#include <sealwire/record/group/framing.hpp>

#include <cstddef>
#include <span>

namespace sealwire::record::group {

// confirmed_transcript_hash writes
//   Hash(interim_transcript_hash_[n-1] || ConfirmedTranscriptHashInput)
// for a commit's AuthenticatedContent (its wire format, content and
// signature; RFC 9420 8.2) into out's first hash_size() bytes and returns
// that size. Errors: the codec's (too_large), not_enough_memory.
[[nodiscard]] SEALWIRE_API result<std::size_t> confirmed_transcript_hash(const suite_algorithms& suite,
                                                                         std::span<std::uint8_t> out,
                                                                         bytes_view interim_before,
                                                                         const authenticated_content& commit);

// interim_transcript_hash writes
//   Hash(confirmed_transcript_hash_[n] || InterimTranscriptHashInput)
// with the commit's confirmation tag (RFC 9420 8.2) and returns the size.
[[nodiscard]] SEALWIRE_API result<std::size_t> interim_transcript_hash(const suite_algorithms& suite,
                                                                       std::span<std::uint8_t> out,
                                                                       bytes_view confirmed,
                                                                       bytes_view confirmation_tag);

// compute_confirmation_tag writes MAC(confirmation_key,
// confirmed_transcript_hash) (RFC 9420 6.1) into out's first hash_size()
// bytes and returns that size.
SEALWIRE_API std::size_t compute_confirmation_tag(const suite_algorithms& suite, std::span<std::uint8_t> out,
                                                  bytes_view confirmation_key,
                                                  bytes_view confirmed_transcript_hash) noexcept;

// verify_confirmation_tag compares tag with the expected MAC in constant
// time. Error: group_errc::invalid_confirmation_tag.
[[nodiscard]] SEALWIRE_API result<void> verify_confirmation_tag(const suite_algorithms& suite, bytes_view tag,
                                                                bytes_view confirmation_key,
                                                                bytes_view confirmed_transcript_hash) noexcept;

}  // namespace sealwire::record::group
