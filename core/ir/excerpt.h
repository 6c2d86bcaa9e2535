// Quoting file-derived text in one-line messages (the layer every other one may use).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace ec {

/// A string taken from a file (a name, a token, a value), made fit to quote in a
/// one-line message: bytes that are not printable ASCII or valid UTF-8 are escaped
/// as \xNN, and the text is cut after `max_chars` characters with "…" (a hostile
/// file must not put megabytes or control characters into an error line).
inline std::string excerpt(std::string_view s, std::size_t max_chars = 80) {
  std::string out;
  std::size_t chars = 0;
  static constexpr char kHex[] = "0123456789abcdef";
  for (std::size_t i = 0; i < s.size();) {
    if (chars >= max_chars) {
      out += "\xe2\x80\xa6";
      break;
    }
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t len = 0;  // a well-formed UTF-8 sequence of `len` bytes starts here
    if (c >= 0x20 && c < 0x7f) len = 1;
    else if (c >= 0xc2 && c <= 0xdf) len = 2;
    else if (c >= 0xe0 && c <= 0xef) len = 3;
    else if (c >= 0xf0 && c <= 0xf4) len = 4;
    bool ok = len > 0 && i + len <= s.size();
    for (std::size_t k = 1; ok && k < len; ++k) ok = (static_cast<unsigned char>(s[i + k]) & 0xc0) == 0x80;
    if (ok && len == 3) {  // no overlong forms, no surrogates
      const auto c1 = static_cast<unsigned char>(s[i + 1]);
      ok = !(c == 0xe0 && c1 < 0xa0) && !(c == 0xed && c1 >= 0xa0);
    } else if (ok && len == 4) {
      const auto c1 = static_cast<unsigned char>(s[i + 1]);
      ok = !(c == 0xf0 && c1 < 0x90) && !(c == 0xf4 && c1 >= 0x90);
    }
    if (ok) {
      out.append(s.substr(i, len));
      i += len;
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
      ++i;
    }
    ++chars;
  }
  return out;
}

/// A whole message made one bounded line: each space-separated word keeps at most
/// `max_word` characters (room for a long path; a name or value echoed from a file is cut with "…"), bytes
/// that are not valid UTF-8 or are control characters (newlines too) are escaped, and
/// the line keeps at most 1000 characters.
inline std::string bounded_message(std::string_view msg, std::size_t max_word = 200) {
  std::string out;
  for (std::size_t start = 0; start <= msg.size() && out.size() < 4000;) {
    std::size_t end = msg.find(' ', start);
    if (end == std::string_view::npos) end = msg.size();
    if (start > 0) out += ' ';
    out += excerpt(msg.substr(start, end - start), max_word);
    start = end + 1;
  }
  return excerpt(out, 1000);
}

}  // namespace ec
