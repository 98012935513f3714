// cabledyn: the lexical layer of the deck reader (internal).
// DECK_FORMAT.md "Lexical rules": `#` or `!` (and MoorDyn v2's `%`) start a comment anywhere
// outside a quoted token; `--` starts a comment at the start of a record or after white space
// in records that are not section headers; a record containing `---` is a section header whose
// name is the non-dash text, case-folded, spaces collapsed; tokens are separated by white
// space, a token that starts with `"` runs to the next `"`; numbers are finite and one token.
//
// Every function here does work linear in the length of its input and never recurses: the
// reader is what a fuzzer hammers.
#pragma once

#include <charconv>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "cabledyn/core/errors.hpp"

namespace cabledyn::io::detail {

/// White space of a record: blank, tab, carriage return, vertical tab, form feed.
inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

inline char upper_char(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c; }

/// ASCII upper case (no locale).
inline std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = upper_char(c);
  return out;
}

/// Case-insensitive (ASCII) equality.
inline bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (upper_char(a[i]) != upper_char(b[i])) return false;
  return true;
}

/// Case-insensitive (ASCII) prefix test.
inline bool istarts_with(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}

/// `s` without leading and trailing white space.
inline std::string_view trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && is_space(s[b])) ++b;
  while (e > b && is_space(s[e - 1])) --e;
  return s.substr(b, e - b);
}

/// A printable excerpt of `s` for an error message: at most 60 characters, bytes outside
/// printable ASCII written as \xNN.
inline std::string excerpt(std::string_view s) {
  constexpr std::size_t kMax = 60;
  std::string out;
  const char* hex = "0123456789ABCDEF";
  for (std::size_t i = 0; i < s.size() && i < kMax; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  if (s.size() > kMax) out += "...";
  return out;
}

/// "file:line", the object of every error the reader throws.
inline std::string where(const std::string& file, int line) { return file + ":" + std::to_string(line); }

/// Throws InputError(object = "file:line", quantity, value (as a printable excerpt), limit).
[[noreturn]] inline void fail(const std::string& file, int line, const std::string& quantity,
                              std::string_view value, const std::string& limit) {
  throw InputError(where(file, line), quantity, excerpt(value), limit);
}

/// One white-space separated token of a record. `column` counts tokens from 1.
struct Token {
  std::string text;
  int column = 0;
  bool quoted = false;  ///< written between double quotes
};

/// The record without its `#`, `!` and `%` comment (outside quoted tokens). A quote opens
/// only at the start of a token; an unterminated quote runs to the end of the record (the
/// tokenizer reports it when the record is read).
inline std::string_view strip_hash_comment(std::string_view s) {
  bool quoted = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (quoted) {
      if (c == '"') quoted = false;
      continue;
    }
    if (c == '"' && (i == 0 || is_space(s[i - 1]))) {
      quoted = true;
      continue;
    }
    if (c == '#' || c == '!' || c == '%') return s.substr(0, i);
  }
  return s;
}

/// The record without its `--` comment: `--` at the start of the record or after white
/// space, outside quoted tokens (DECK_FORMAT.md; not applied to section headers).
inline std::string_view strip_dash_comment(std::string_view s) {
  bool quoted = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (quoted) {
      if (c == '"') quoted = false;
      continue;
    }
    const bool at_token_start = i == 0 || is_space(s[i - 1]);
    if (c == '"' && at_token_start) {
      quoted = true;
      continue;
    }
    if (c == '-' && at_token_start && i + 1 < s.size() && s[i + 1] == '-') return s.substr(0, i);
  }
  return s;
}

/// True for a section header: the record (comments removed) contains `---`.
inline bool is_header(std::string_view s) { return s.find("---") != std::string_view::npos; }

/// The name of a section header: its non-dash text, upper case, runs of white space
/// collapsed to one blank, trimmed.
inline std::string header_name(std::string_view s) {
  std::string out;
  bool pending_space = false;
  for (char c : s) {
    if (c == '-' || is_space(c)) {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out += ' ';
    pending_space = false;
    out += upper_char(c);
  }
  return out;
}

/// Splits a record into tokens. A token that starts with `"` runs to the next `"`, which
/// must end the token. Throws InputError naming file:line for an unterminated quote or text
/// glued to a closing quote.
inline std::vector<Token> tokenize(std::string_view s, const std::string& file, int line) {
  std::vector<Token> out;
  std::size_t i = 0;
  const std::size_t n = s.size();
  while (i < n) {
    while (i < n && is_space(s[i])) ++i;
    if (i >= n) break;
    Token t;
    t.column = static_cast<int>(out.size()) + 1;
    if (s[i] == '"') {
      const std::size_t close = s.find('"', i + 1);
      if (close == std::string_view::npos)
        fail(file, line, "column " + std::to_string(t.column), s.substr(i), "a closing quote");
      if (close + 1 < n && !is_space(s[close + 1]))
        fail(file, line, "column " + std::to_string(t.column), s.substr(i), "white space after the closing quote");
      t.text = std::string(s.substr(i + 1, close - i - 1));
      t.quoted = true;
      i = close + 1;
    } else {
      const std::size_t b = i;
      while (i < n && !is_space(s[i])) ++i;
      t.text = std::string(s.substr(b, i - b));
    }
    out.push_back(std::move(t));
  }
  return out;
}

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// True when the token reads as the start of a number (a digit, or a sign or point followed
/// by a digit, or a sign, point and digit): the test that tells a table's data rows from its
/// header and units rows (DECK_FORMAT.md: a row with no numeric token is skipped).
inline bool looks_numeric(std::string_view t) {
  if (t.empty()) return false;
  std::size_t i = 0;
  if (t[i] == '+' || t[i] == '-') ++i;
  if (i < t.size() && t[i] == '.') ++i;
  return i < t.size() && is_digit(t[i]);
}

/// The finite number a whole token spells (C locale; an optional leading `+`), or none.
inline std::optional<double> to_double(std::string_view t) {
  if (!t.empty() && t[0] == '+') {
    t.remove_prefix(1);
    if (!t.empty() && (t[0] == '+' || t[0] == '-')) return std::nullopt;
  }
  if (t.empty()) return std::nullopt;
  double v = 0;
  const auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v, std::chars_format::general);
  if (ec != std::errc() || p != t.data() + t.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

/// The integer a whole token spells (optional sign, decimal digits), or none (also on
/// overflow of long long).
inline std::optional<long long> to_integer(std::string_view t) {
  if (!t.empty() && t[0] == '+') {
    t.remove_prefix(1);
    if (!t.empty() && (t[0] == '+' || t[0] == '-')) return std::nullopt;
  }
  if (t.empty()) return std::nullopt;
  long long v = 0;
  const auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v, 10);
  if (ec != std::errc() || p != t.data() + t.size()) return std::nullopt;
  return v;
}

/// The shortest text that reads back as exactly `v` (std::to_chars), for the writer.
inline std::string number_text(double v) {
  char buf[64];
  const auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v);
  if (ec != std::errc()) return cabledyn::to_text(v);
  return std::string(buf, p);
}

/// `t` as one token of a record: quoted when it is empty or holds white space, a comment
/// character, a leading `"` or `--`, so that the tokenizer reads it back unchanged.
inline std::string token_text(std::string_view t) {
  bool quote = t.empty() || t[0] == '"' || (t.size() >= 2 && t[0] == '-' && t[1] == '-');
  for (char c : t)
    if (is_space(c) || c == '#' || c == '!' || c == '%') quote = true;
  std::string out;
  if (quote) out.push_back('"');
  out.append(t);
  if (quote) out.push_back('"');
  return out;
}

}  // namespace cabledyn::io::detail
