#include <catch2/catch.hpp>

#include <string>

#include <curl/curl.h>

#include "core/errors.hpp"
#include "net/curl_lazy.hpp"

using loader::ErrorKind;
using loader::LoaderError;
using loader::net::detail::open_library;

// net/curl_lazy.cpp: libcurl is opened on first use, not linked.

TEST_CASE("a library that cannot be opened is a configuration error naming "
          "it and what needs it",
          "[unit][net]")
{
  char const *const missing = "libinvoice-loader-no-such-library.so.0";
  try
  {
    open_library(missing);
    FAIL("open_library returned for a library that does not exist");
  }
  catch (LoaderError const &e)
  {
    std::string const what{e.what()};
    CAPTURE(what);
    CHECK(e.kind == ErrorKind::config);
    CHECK(what.find(missing) != std::string::npos);
    // dlerror()'s reason, then what it is for
    CHECK(what.find("No such file or directory") != std::string::npos);
    CHECK(what.find("install libcurl4") != std::string::npos);
  }
}

TEST_CASE("the stand-ins reach libcurl: version, URL parts, options by type",
          "[unit][net]")
{
  // curl_version_info through the stand-in: the library's own answer
  curl_version_info_data const *info = curl_version_info(CURLVERSION_NOW);
  REQUIRE(info != nullptr);
  CHECK(std::string{curl_version()}.rfind("libcurl/", 0) == 0);

  // curl_url_set / curl_url_get / curl_free: a round trip through libcurl
  CURLU *u = curl_url();
  REQUIRE(u != nullptr);
  REQUIRE(curl_url_set(u, CURLUPART_URL, "https://feeds.example/a/b.csv?x=1",
                       0) == CURLUE_OK);
  char *host = nullptr;
  REQUIRE(curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK);
  CHECK(std::string{host} == "feeds.example");
  curl_free(host);
  curl_url_cleanup(u);

  // curl_easy_setopt and curl_easy_getinfo pass their one variadic
  // argument on: a long, a curl_off_t and a string arrive as given (the
  // URL is read back, a negative redirect limit is refused)
  CURL *h = curl_easy_init();
  REQUIRE(h != nullptr);
  CHECK(curl_easy_setopt(h, CURLOPT_TIMEOUT, 7L) == CURLE_OK);
  CHECK(curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE,
                         static_cast<curl_off_t>(1) << 40) == CURLE_OK);
  CHECK(curl_easy_setopt(h, CURLOPT_URL, "http://127.0.0.1:9/x") ==
        CURLE_OK);
  // below -1 is refused: the value arrived intact
  CHECK(curl_easy_setopt(h, CURLOPT_MAXREDIRS, -2L) ==
        CURLE_BAD_FUNCTION_ARGUMENT);
  char *url = nullptr;
  REQUIRE(curl_easy_getinfo(h, CURLINFO_EFFECTIVE_URL, &url) == CURLE_OK);
  CHECK(std::string{url} == "http://127.0.0.1:9/x");
  CHECK(std::string{curl_easy_strerror(CURLE_OK)} == "No error");
  curl_easy_cleanup(h);
}
