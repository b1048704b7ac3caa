#include "cli/conninfo.hpp"

#include <memory>
#include <regex>
#include <string_view>

#include <boost/algorithm/string/predicate.hpp>
#include <libpq-fe.h>

namespace loader::cli
{
namespace
{
struct OptionsFree
{
  void operator()(PQconninfoOption *o) const noexcept { PQconninfoFree(o); }
};

/// libpq takes a dbname that is a URI or holds '=' as a connection string.
bool is_conninfo(std::string_view v)
{
  return v.find('=') != std::string_view::npos or
         boost::algorithm::istarts_with(v, "postgresql://") or
         boost::algorithm::istarts_with(v, "postgres://");
}

/// For what libpq refuses to parse (so would refuse to connect with):
/// conservative, a "password =" anywhere or "scheme://user:x@".  Only a
/// verdict is drawn from it; the string is never echoed.
bool mentions_password(std::string const &s)
{
  static std::regex const keyword{R"(password\s*=)", std::regex::icase};
  static std::regex const userinfo{R"(^[a-z]+://[^/?@]*:[^/?]*@)",
                                   std::regex::icase};
  return std::regex_search(s, keyword) or std::regex_search(s, userinfo);
}

bool has_password(std::string const &dsn, int depth)
{
  if (depth > 4) return true; // absurd nesting: refuse rather than guess
  char *err = nullptr;
  std::unique_ptr<PQconninfoOption, OptionsFree> const options{
    PQconninfoParse(dsn.c_str(), &err)};
  if (not options)
  {
    PQfreemem(err);
    return mentions_password(dsn);
  }
  for (PQconninfoOption const *o = options.get(); o->keyword != nullptr; ++o)
  {
    if (o->val == nullptr) continue;
    std::string_view const key{o->keyword};
    if (key == "password") return true;
    if (key == "dbname" and is_conninfo(o->val) and
        has_password(o->val, depth + 1))
      return true;
  }
  return false;
}
} // namespace

bool dsn_has_password(std::string const &dsn)
{
  return has_password(dsn, 0);
}
} // namespace loader::cli
