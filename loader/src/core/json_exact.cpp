#include "core/json_exact.hpp"

#include <vector>

namespace loader
{
namespace
{
using json = nlohmann::ordered_json;

/// A DOM builder on nlohmann's SAX interface, the one place that sees a
/// number's original text (number_float's second argument).
class ExactBuilder : public nlohmann::json_sax<json>
{
public:
  json root;
  bool failed = false;

  bool null() override { return put(nullptr); }
  bool boolean(bool v) override { return put(v); }
  bool number_integer(number_integer_t v) override { return put(v); }
  bool number_unsigned(number_unsigned_t v) override { return put(v); }
  bool number_float(number_float_t, string_t const &text) override
  {
    return put(text);
  }
  bool string(string_t &v) override { return put(v); }
  bool binary(binary_t &) override { return put(nullptr); }
  bool start_object(std::size_t) override { return open(json::object()); }
  bool key(string_t &k) override
  {
    m_key = k;
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override { return open(json::array()); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t, std::string const &,
                   nlohmann::detail::exception const &) override
  {
    failed = true;
    return false;
  }

private:
  /// Where the next value goes.
  json *slot()
  {
    if (m_stack.empty()) return &root;
    json &top = *m_stack.back();
    if (top.is_array())
    {
      top.push_back(nullptr);
      return &top.back();
    }
    return &top[m_key];
  }
  template<typename T> bool put(T &&v)
  {
    *slot() = std::forward<T>(v);
    return true;
  }
  bool open(json empty)
  {
    json *at = slot();
    *at = std::move(empty);
    m_stack.push_back(at);
    return true;
  }
  bool close()
  {
    m_stack.pop_back();
    return true;
  }

  std::vector<json *> m_stack;
  std::string m_key;
};
} // namespace

nlohmann::ordered_json parse_exact(std::string const &text)
{
  ExactBuilder b;
  bool const ok = json::sax_parse(text, &b);
  if (not ok or b.failed) return json(json::value_t::discarded);
  return std::move(b.root);
}
} // namespace loader
