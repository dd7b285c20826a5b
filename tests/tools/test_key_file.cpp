// SPDX-License-Identifier: Apache-2.0
// The tools' key-file helper: private files are 0600 whatever the umask, an
// existing file (or a symbolic link, even a dangling one) is never
// overwritten without the flag, the flag replaces it atomically with the
// right mode, and a link's target is never written.
#include "key_file.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <span>
#include <sstream>
#include <vector>

namespace fs = std::filesystem;
using sealwire::tools::key_file_error;
using sealwire::tools::write_key_file;
using sealwire::tools::write_key_pair_files;

namespace {

class KeyFile : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() / ("sealwire-key-file-" + std::to_string(::getpid()) + "-" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    old_umask_ = ::umask(0);  // the widest umask: the helper alone must narrow the mode
  }
  void TearDown() override {
    ::umask(old_umask_);
    fs::remove_all(dir_);
  }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  static std::string contents(const std::string& p) {
    std::ifstream f(p, std::ios::binary);
    std::ostringstream s;
    s << f.rdbuf();
    return s.str();
  }

  static unsigned mode_of(const std::string& p) {
    struct stat st {};
    EXPECT_EQ(::lstat(p.c_str(), &st), 0) << p;
    return st.st_mode & 07777;
  }

  // files lists the directory (no temporary files may be left behind).
  std::vector<std::string> files() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir_)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }

  fs::path dir_;
  mode_t old_umask_ = 0;
};

TEST_F(KeyFile, PrivateFileIsOwnerOnlyWhateverTheUmask) {
  write_key_file(path("k.priv"), "secret\n", {.mode = 0600});
  EXPECT_EQ(mode_of(path("k.priv")), 0600u);
  EXPECT_EQ(contents(path("k.priv")), "secret\n");
  write_key_file(path("k.pub"), "public\n", {.mode = 0644});
  EXPECT_EQ(mode_of(path("k.pub")), 0644u);
}

TEST_F(KeyFile, RefusesToOverwriteWithoutTheFlag) {
  write_key_file(path("k.priv"), "first\n", {.mode = 0600});
  try {
    write_key_file(path("k.priv"), "second\n", {.mode = 0600});
    ADD_FAILURE() << "an existing key file was overwritten";
  } catch (const key_file_error& e) {
    EXPECT_EQ(e.code(), std::errc::file_exists);
    EXPECT_NE(std::string(e.what()).find("k.priv"), std::string::npos) << e.what();
  }
  EXPECT_EQ(contents(path("k.priv")), "first\n");
}

TEST_F(KeyFile, OverwritesWithTheFlagAtomicallyAndWithTheRightMode) {
  // The old file is world-readable; its replacement must not inherit that.
  write_key_file(path("k.priv"), "old\n", {.mode = 0644});
  ASSERT_EQ(mode_of(path("k.priv")), 0644u);
  struct stat before {};
  ASSERT_EQ(::stat(path("k.priv").c_str(), &before), 0);
  write_key_file(path("k.priv"), "new\n", {.mode = 0600, .overwrite = true});
  EXPECT_EQ(contents(path("k.priv")), "new\n");
  EXPECT_EQ(mode_of(path("k.priv")), 0600u);
  struct stat after {};
  ASSERT_EQ(::stat(path("k.priv").c_str(), &after), 0);
  EXPECT_NE(before.st_ino, after.st_ino) << "replaced by a new file (rename), not rewritten in place";
  EXPECT_EQ(files(), std::vector<std::string>{"k.priv"}) << "no temporary file left behind";
  // The flag also writes a file that does not exist yet.
  write_key_file(path("fresh"), "x", {.mode = 0600, .overwrite = true});
  EXPECT_EQ(contents(path("fresh")), "x");
}

TEST_F(KeyFile, NeverFollowsASymbolicLink) {
  write_key_file(path("target"), "victim\n", {.mode = 0644});
  fs::create_symlink(path("target"), path("link"));
  fs::create_symlink(path("absent"), path("dangling"));
  for (const char* name : {"link", "dangling"}) {
    EXPECT_THROW(write_key_file(path(name), "secret\n", {.mode = 0600}), key_file_error) << name;
  }
  EXPECT_EQ(contents(path("target")), "victim\n");
  EXPECT_FALSE(fs::exists(path("absent"))) << "a dangling link's target was created";
  // With the flag the link itself is replaced; its target is untouched.
  write_key_file(path("link"), "secret\n", {.mode = 0600, .overwrite = true});
  EXPECT_FALSE(fs::is_symlink(path("link")));
  EXPECT_EQ(contents(path("link")), "secret\n");
  EXPECT_EQ(mode_of(path("link")), 0600u);
  EXPECT_EQ(contents(path("target")), "victim\n");
  EXPECT_EQ(mode_of(path("target")), 0644u);
}

TEST_F(KeyFile, ErrorsNameTheFileAndLeaveNothing) {
  EXPECT_THROW(write_key_file(path("no-such-dir/k.priv"), "x", {.mode = 0600}), key_file_error);
  EXPECT_THROW(write_key_file(path("no-such-dir/k.priv"), "x", {.mode = 0600, .overwrite = true}), key_file_error);
  EXPECT_THROW(write_key_file("", "x", {.mode = 0600}), key_file_error);
  fs::create_directory(path("dir"));
  EXPECT_THROW(write_key_file(path("dir"), "x", {.mode = 0600, .overwrite = true}), key_file_error);
  EXPECT_TRUE(fs::is_directory(path("dir")));
  EXPECT_EQ(files(), std::vector<std::string>{"dir"});
}

TEST_F(KeyFile, PairIsAllOrNothingWithoutTheFlag) {
  const std::string priv = path("k.priv"), pub = path("k.pub");
  const auto b = [](std::string_view s) {
    return std::span(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
  };
  // An existing public file: the private one is not written either.
  write_key_file(pub, "old public\n", {.mode = 0644});
  EXPECT_THROW(write_key_pair_files(priv, b("sk"), pub, b("pk"), false), key_file_error);
  EXPECT_FALSE(fs::exists(priv));
  EXPECT_EQ(contents(pub), "old public\n");
  // With the flag both are replaced with their modes.
  write_key_pair_files(priv, b("sk"), pub, b("pk"), true);
  EXPECT_EQ(contents(priv), "sk");
  EXPECT_EQ(contents(pub), "pk");
  EXPECT_EQ(mode_of(priv), 0600u);
  EXPECT_EQ(mode_of(pub), 0644u);
  // The public file cannot be written (its directory is missing): the
  // private file just created is removed again.
  const std::string priv2 = path("k2.priv");
  EXPECT_THROW(write_key_pair_files(priv2, b("sk"), path("missing/k2.pub"), b("pk"), false), key_file_error);
  EXPECT_FALSE(fs::exists(priv2));
}

}  // namespace
