// SPDX-License-Identifier: Apache-2.0
// The structures fuzz_group_decode decodes, by selector byte, and the seed
// generator for it (fuzz/group_seeds.cpp).
#pragma once

#include <cstdint>
#include <filesystem>

namespace sealwire::fuzz {

// group_kind is the structure an input's first byte selects (modulo count).
enum class group_kind : std::uint8_t {
  mls_message,
  ratchet_tree,
  group_secrets,
  add,
  update,
  remove,
  pre_shared_key,
  reinit,
  external_init,
  group_context_extensions,
  commit,
  key_package,
  leaf_node,
  group_context,
  group_info,
  welcome,
  authenticated_content,
  sender_data,
  private_message_content,
  count,
};

// group_decode_seeds writes ROOT/fuzz_group_decode/seed-NNN from the MLS
// interop vectors' messages.json (in `vectors_dir`/mls): each field of the
// first cases behind its selector byte, and the structures nested in them.
void group_decode_seeds(const std::filesystem::path& root, const std::filesystem::path& vectors_dir);

}  // namespace sealwire::fuzz
