/// libcurl, opened on first use.  A load of a local file never calls
/// libcurl, and linking it costs every start about 2.5 ms on the test hosts
/// (libcurl and the fifteen libraries it brings, GnuTLS's constructor among
/// them: docs/PERFORMANCE.md, "libcurl opened when a URL needs it").  So
/// the binary does not link it: these definitions stand in for the libcurl
/// functions net/ calls, and the first of them opens libcurl.so.4 (its
/// stable ABI since 2006) with dlopen and takes each function from it.
/// Written by hand because no library does this for a Debian build: the
/// glue is one dlsym per function, and a setopt that passes its argument
/// on by the option's type, as libcurl's own curl_easy_setopt reads it.
/// A missing libcurl is an error of the one run that needs it (a URL input,
/// a notification), with dlerror()'s text, never a crash.
#include "net/curl_lazy.hpp"

#include <cstdarg>
#include <mutex>
#include <string>

#include <dlfcn.h>

#include <curl/curl.h>
#include <curl/header.h>

#include "core/errors.hpp"

namespace loader::net::detail
{
void *open_library(char const *soname)
{
  void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr)
  {
    char const *why = dlerror();
    throw LoaderError{ErrorKind::config,
                      std::string{"cannot load "} + soname + " (" +
                        (why != nullptr ? why : "unknown error") +
                        "): URL inputs, feeds and notifications need "
                        "libcurl; install libcurl4"};
  }
  return lib;
}

namespace
{
void *libcurl()
{
  static void *lib = nullptr;
  static std::once_flag once;
  std::call_once(once, [] { lib = open_library(curl_library_soname); });
  return lib;
}

/// The function `name` of libcurl, as type F; looked up once per name.
template<typename F> F symbol(char const *name)
{
  void *const f = dlsym(libcurl(), name);
  if (f == nullptr)
    throw LoaderError{ErrorKind::config, std::string{curl_library_soname} +
                                           " has no " + name +
                                           " (libcurl 7.84 or later needed)"};
  return reinterpret_cast<F>(f);
}
} // namespace
} // namespace loader::net::detail

using loader::net::detail::symbol;

// The names in parentheses: curl.h's type-checking macros of the same
// names (GCC) stay out of the definitions.
extern "C" {
CURLcode(curl_global_init)(long flags)
{
  static auto const f = symbol<CURLcode (*)(long)>("curl_global_init");
  return f(flags);
}

CURL *(curl_easy_init)(void)
{
  static auto const f = symbol<CURL *(*)(void)>("curl_easy_init");
  return f();
}

CURLcode(curl_easy_setopt)(CURL *handle, CURLoption option, ...)
{
  using Setopt = CURLcode (*)(CURL *, CURLoption, ...);
  static auto const f = symbol<Setopt>("curl_easy_setopt");
  // libcurl reads the argument by the option's type (its CURLOPTTYPE_
  // range): a long, a curl_off_t, or a pointer (object, string, list,
  // callback, blob); it is passed on as that type.
  va_list ap;
  va_start(ap, option);
  CURLcode rc;
  if (option < CURLOPTTYPE_OBJECTPOINT)
    rc = f(handle, option, va_arg(ap, long));
  else if (option >= CURLOPTTYPE_OFF_T and option < CURLOPTTYPE_BLOB)
    rc = f(handle, option, va_arg(ap, curl_off_t));
  else
    rc = f(handle, option, va_arg(ap, void *));
  va_end(ap);
  return rc;
}

CURLcode(curl_easy_getinfo)(CURL *handle, CURLINFO info, ...)
{
  using Getinfo = CURLcode (*)(CURL *, CURLINFO, ...);
  static auto const f = symbol<Getinfo>("curl_easy_getinfo");
  // Every CURLINFO takes a pointer to where the answer goes.
  va_list ap;
  va_start(ap, info);
  void *const out = va_arg(ap, void *);
  va_end(ap);
  return f(handle, info, out);
}

CURLcode(curl_easy_perform)(CURL *handle)
{
  static auto const f = symbol<CURLcode (*)(CURL *)>("curl_easy_perform");
  return f(handle);
}

void(curl_easy_cleanup)(CURL *handle)
{
  static auto const f = symbol<void (*)(CURL *)>("curl_easy_cleanup");
  f(handle);
}

char const *(curl_easy_strerror)(CURLcode code)
{
  static auto const f =
    symbol<char const *(*)(CURLcode)>("curl_easy_strerror");
  return f(code);
}

CURLHcode(curl_easy_header)(CURL *easy, char const *name, size_t index,
                            unsigned int origin, int request,
                            curl_header **hout)
{
  using Header = CURLHcode (*)(CURL *, char const *, size_t, unsigned int,
                               int, curl_header **);
  static auto const f = symbol<Header>("curl_easy_header");
  return f(easy, name, index, origin, request, hout);
}

void(curl_free)(void *p)
{
  static auto const f = symbol<void (*)(void *)>("curl_free");
  f(p);
}

time_t(curl_getdate)(char const *p, time_t const *unused)
{
  static auto const f =
    symbol<time_t (*)(char const *, time_t const *)>("curl_getdate");
  return f(p, unused);
}

curl_slist *(curl_slist_append)(curl_slist *list, char const *data)
{
  static auto const f =
    symbol<curl_slist *(*)(curl_slist *, char const *)>("curl_slist_append");
  return f(list, data);
}

void(curl_slist_free_all)(curl_slist *list)
{
  static auto const f =
    symbol<void (*)(curl_slist *)>("curl_slist_free_all");
  f(list);
}

CURLU *(curl_url)(void)
{
  static auto const f = symbol<CURLU *(*)(void)>("curl_url");
  return f();
}

void(curl_url_cleanup)(CURLU *handle)
{
  static auto const f = symbol<void (*)(CURLU *)>("curl_url_cleanup");
  f(handle);
}

CURLUcode(curl_url_get)(CURLU *handle, CURLUPart what, char **part,
                        unsigned int flags)
{
  using Get = CURLUcode (*)(CURLU *, CURLUPart, char **, unsigned int);
  static auto const f = symbol<Get>("curl_url_get");
  return f(handle, what, part, flags);
}

CURLUcode(curl_url_set)(CURLU *handle, CURLUPart what, char const *part,
                        unsigned int flags)
{
  using Set = CURLUcode (*)(CURLU *, CURLUPart, char const *, unsigned int);
  static auto const f = symbol<Set>("curl_url_set");
  return f(handle, what, part, flags);
}

char *(curl_version)(void)
{
  static auto const f = symbol<char *(*)(void)>("curl_version");
  return f();
}

curl_version_info_data *(curl_version_info)(CURLversion age)
{
  static auto const f =
    symbol<curl_version_info_data *(*)(CURLversion)>("curl_version_info");
  return f(age);
}
}
