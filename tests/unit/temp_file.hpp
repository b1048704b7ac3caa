#pragma once
// A temporary file for unit tests: the given bytes under /tmp, with the given
// mode, removed when the object goes (also when a REQUIRE fails first).
#include <cstdio>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>

struct TempFile
{
  explicit TempFile(std::string const &bytes, mode_t mode = 0600)
  {
    char name[] = "/tmp/invoice-loader-test.XXXXXX";
    int const fd = ::mkstemp(name);
    REQUIRE(fd >= 0);
    path = name;
    REQUIRE(::write(fd, bytes.data(), bytes.size()) ==
            static_cast<ssize_t>(bytes.size()));
    ::close(fd);
    REQUIRE(::chmod(name, mode) == 0);
  }
  TempFile(TempFile const &) = delete;
  TempFile &operator=(TempFile const &) = delete;
  ~TempFile() { std::remove(path.c_str()); }
  std::string path;
};
