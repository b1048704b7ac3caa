#pragma once
// What notify sends (internal to flows/notify*.cpp): header values kept
// on one line; the e-mail built from a claimed notification
// (message_id_of and mail_message are declared in flows/notify.hpp).
#include <string>

namespace loader::flows::notify_detail
{
/// A header value on one line: CR, LF and other controls become spaces
/// (a source name must not add a header).
std::string one_header_line(std::string s);
} // namespace loader::flows::notify_detail
