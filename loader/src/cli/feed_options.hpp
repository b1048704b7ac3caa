#pragma once
/// Options `load` and `catch-up` share: how a URL input is fetched
/// (net/transport.hpp) and the retry layer's bounds.
#include <string>

#include <boost/program_options/options_description.hpp>
#include <boost/program_options/variables_map.hpp>

#include "core/retry.hpp"
#include "flows/load.hpp"

namespace loader::cli
{
void add_feed_options(boost::program_options::options_description &d);
void add_retry_options(boost::program_options::options_description &d);
void bind_feed_options(boost::program_options::variables_map const &vm,
                       flows::FeedOptions &out);
void bind_retry_options(boost::program_options::variables_map const &vm,
                        RetryPolicy &out);

/// "URLs: http, https, file (libcurl/7.88.1 OpenSSL/3.0.11 ...)": what the
/// linked libcurl offers, for --help.
std::string url_support_sentence();

/// A URL given for --<option>: its scheme must be one the linked libcurl
/// offers for inputs, and it must carry no password (credentials come
/// from a netrc file, never from the command line).  Config error
/// otherwise; the message shows the URL without its userinfo.
void check_input_url(char const *option, std::string const &url);
} // namespace loader::cli
