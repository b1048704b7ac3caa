#pragma once
/// libcurl opened on first use (net/curl_lazy.cpp): the binary does not
/// link it, and the libcurl functions net/ calls open it when first called.
/// Internal to net/.

namespace loader::net::detail
{
/// The library the stand-ins open: libcurl's stable ABI.
inline constexpr char const *curl_library_soname = "libcurl.so.4";

/// dlopen(soname); a library that cannot be loaded throws a config
/// LoaderError (exit 78) naming it, with dlerror()'s reason.
void *open_library(char const *soname);
} // namespace loader::net::detail
