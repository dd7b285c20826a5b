// SPDX-License-Identifier: Apache-2.0
// Key files for sealwire's tools: created owner-only (or world-readable for
// public keys) in one step, written fully or not at all, and never replaced
// unless the caller asks for it.
#pragma once

#include <sys/types.h>

#include <string.h>  // explicit_bzero

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

namespace sealwire::tools {

// key_file_error is a failure to write (or read) a key file; what() names the
// file and the reason, code() is the errno it came from (file_exists when an
// existing file was not overwritten).
class key_file_error : public std::runtime_error {
 public:
  key_file_error(const std::string& what, std::error_code code) : std::runtime_error(what), code_(code) {}
  [[nodiscard]] std::error_code code() const noexcept { return code_; }

 private:
  std::error_code code_;
};

struct key_file_options {
  mode_t mode = 0600;      // 0600 for private keys, 0644 for public ones
  bool overwrite = false;  // replace an existing file (a --force flag)
};

// write_key_file writes data to path as a new file with options.mode. It
// never follows a symbolic link at path and never leaves a partial file.
//
// Without options.overwrite an existing path (a file, a directory or a
// symbolic link, even a dangling one) is refused with file_exists. With it,
// the data goes to a new file beside path, created exclusively with the
// final mode, which then rename()s over path: at no moment is there a file
// at path with the wrong mode or half its contents. A symbolic link at path
// is replaced by the file, its target is left alone.
//
// Throws key_file_error.
void write_key_file(const std::string& path, std::span<const std::uint8_t> data, const key_file_options& options);

// write_key_file for text (a hex line).
void write_key_file(const std::string& path, std::string_view text, const key_file_options& options);

// write_key_pair_files writes a private key file (mode 0600) and its public
// key file (mode 0644), private first. Without overwrite, neither may exist
// (checked before anything is written), and if the public file cannot be
// written the private file just created is removed again: a failure leaves
// no new files. With overwrite each file is replaced as write_key_file does.
// Throws key_file_error.
void write_key_pair_files(const std::string& private_path, std::span<const std::uint8_t> private_data,
                          const std::string& public_path, std::span<const std::uint8_t> public_data, bool overwrite);

// wipe_on_exit zeroes a string holding key material (hex text) when it goes
// out of scope, on every path out of it.
class wipe_on_exit {
 public:
  explicit wipe_on_exit(std::string& s) noexcept : s_(s) {}
  ~wipe_on_exit() { ::explicit_bzero(s_.data(), s_.size()); }
  wipe_on_exit(const wipe_on_exit&) = delete;
  wipe_on_exit& operator=(const wipe_on_exit&) = delete;

 private:
  std::string& s_;
};

}  // namespace sealwire::tools
