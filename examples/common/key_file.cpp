// SPDX-License-Identifier: Apache-2.0
// Key files for sealwire's tools (see key_file.hpp).
#include "key_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string_view>
#include <vector>

namespace sealwire::tools {
namespace {

[[noreturn]] void fail(const std::string& path, int err, const std::string& what = {}) {
  const std::error_code code(err, std::generic_category());
  std::string text = path + ": ";
  if (!what.empty()) text += what + ": ";
  text += err == EEXIST ? "already exists (not overwritten)" : code.message();
  throw key_file_error(text, code);
}

// write_all writes every byte, retrying short writes and EINTR; returns 0 or an errno.
int write_all(int fd, std::span<const std::uint8_t> data) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (n == 0) return EIO;
    done += static_cast<std::size_t>(n);
  }
  return 0;
}

// fill sets the mode (the umask may have narrowed it at creation; fchmod
// makes it exact either way), writes the data and flushes it to disk.
// Returns 0 or an errno.
int fill(int fd, std::span<const std::uint8_t> data, mode_t mode) {
  if (::fchmod(fd, mode) != 0) return errno;
  if (const int err = write_all(fd, data); err != 0) return err;
  if (::fsync(fd) != 0) return errno;
  return 0;
}

// remove_if_ours unlinks path only if it is still the file open as fd (a
// failure must not remove a file someone else put there meanwhile).
void remove_if_ours(const std::string& path, int fd) {
  struct stat mine {}, there {};
  if (::fstat(fd, &mine) == 0 && ::lstat(path.c_str(), &there) == 0 && mine.st_dev == there.st_dev &&
      mine.st_ino == there.st_ino) {
    ::unlink(path.c_str());
  }
}

// close_checked closes fd; a failed close means the data may not be on disk.
int close_checked(int fd) {
  if (::close(fd) != 0 && errno != EINTR) return errno;
  return 0;
}

void write_new(const std::string& path, std::span<const std::uint8_t> data, mode_t mode) {
  // O_EXCL refuses any existing name, symbolic links included, and
  // O_NOFOLLOW says so explicitly; the file starts with no more than `mode`.
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
  if (fd < 0) fail(path, errno);
  int err = fill(fd, data, mode);
  if (err != 0) remove_if_ours(path, fd);
  const int close_err = close_checked(fd);
  if (err == 0 && close_err != 0) {
    ::unlink(path.c_str());
    err = close_err;
  }
  if (err != 0) fail(path, err);
}

void replace(const std::string& path, std::span<const std::uint8_t> data, mode_t mode) {
  // A fresh, exclusively created file in the same directory (so rename() is
  // atomic), mkostemp's random suffix, O_CLOEXEC; mode 0600 from the start,
  // then exactly `mode`.
  std::vector<char> name(path.begin(), path.end());
  for (const char c : std::string_view(".tmp-XXXXXX")) name.push_back(c);
  name.push_back('\0');
  const int fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0) fail(path, errno, "cannot create a temporary file beside it");
  const std::string tmp(name.data());
  int err = fill(fd, data, mode);
  const int close_err = close_checked(fd);
  if (err == 0) err = close_err;
  // rename() replaces a symbolic link at path itself, never its target.
  if (err == 0 && ::rename(tmp.c_str(), path.c_str()) != 0) err = errno;
  if (err != 0) {
    ::unlink(tmp.c_str());
    fail(path, err);
  }
}

}  // namespace

void write_key_file(const std::string& path, std::span<const std::uint8_t> data, const key_file_options& options) {
  if (path.empty()) throw key_file_error("key file: empty path", std::make_error_code(std::errc::invalid_argument));
  if (options.overwrite) {
    // A directory at path stays a directory: rename() would fail anyway,
    // but say so plainly.
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) fail(path, EISDIR);
    replace(path, data, options.mode);
  } else {
    write_new(path, data, options.mode);
  }
}

void write_key_file(const std::string& path, std::string_view text, const key_file_options& options) {
  write_key_file(path, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()), options);
}

void write_key_pair_files(const std::string& private_path, std::span<const std::uint8_t> private_data,
                          const std::string& public_path, std::span<const std::uint8_t> public_data, bool overwrite) {
  if (!overwrite) {
    // Refuse before writing anything (O_EXCL below still decides races).
    for (const std::string* p : {&private_path, &public_path}) {
      struct stat st {};
      if (::lstat(p->c_str(), &st) == 0) fail(*p, EEXIST);
    }
  }
  write_key_file(private_path, private_data, {.mode = 0600, .overwrite = overwrite});
  try {
    write_key_file(public_path, public_data, {.mode = 0644, .overwrite = overwrite});
  } catch (const key_file_error& e) {
    if (!overwrite) {
      ::unlink(private_path.c_str());
      throw;
    }
    throw key_file_error(std::string(e.what()) + " (" + private_path + " was replaced; it does not match " +
                             public_path + ")",
                         e.code());
  }
}

}  // namespace sealwire::tools
