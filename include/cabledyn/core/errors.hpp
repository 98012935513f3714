// cabledyn: named errors.
// Every failure the library reports names the object, the offending value and the limit it
// broke (ARCHITECTURE.md, "Rules of the house": bad input fails closed, never NaN).
#pragma once

#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

namespace cabledyn {

/// Text of a value for an error message: numbers with full round-trip precision.
template <class V>
std::string to_text(const V& v) {
  if constexpr (std::is_same_v<V, bool>) {
    return v ? "true" : "false";
  } else if constexpr (std::is_integral_v<V>) {
    return std::to_string(v);
  } else if constexpr (std::is_floating_point_v<V>) {
    char buf[64];
    std::snprintf(buf, sizeof buf, std::is_same_v<V, long double> ? "%.21Lg" : "%.17Lg",
                  static_cast<long double>(v));
    return buf;
  } else if constexpr (std::is_convertible_v<V, std::string_view>) {
    return std::string(std::string_view(v));
  } else {
    std::ostringstream os;
    os << v;
    return os.str();
  }
}

/// Base of every cabledyn error. `what()` reads
/// "<kind>: <object>: <quantity> = <value> (limit: <limit>)".
class Error : public std::runtime_error {
 public:
  Error(std::string kind, std::string object, std::string quantity, std::string value,
        std::string limit)
      : std::runtime_error(compose(kind, object, quantity, value, limit)),
        kind_(std::move(kind)),
        object_(std::move(object)),
        quantity_(std::move(quantity)),
        value_(std::move(value)),
        limit_(std::move(limit)) {}

  /// Error class name, e.g. "InputError".
  const std::string& kind() const noexcept { return kind_; }
  /// The object at fault: "line 2", "element 17", "LineType chain", "deck.dat:14".
  const std::string& object() const noexcept { return object_; }
  /// The quantity at fault: "EA", "L0", "dt", ...
  const std::string& quantity() const noexcept { return quantity_; }
  /// The offending value as text.
  const std::string& value() const noexcept { return value_; }
  /// The limit the value broke, as text ("> 0", "in [0, 1]", ...).
  const std::string& limit() const noexcept { return limit_; }

 private:
  static std::string compose(const std::string& kind, const std::string& object,
                             const std::string& quantity, const std::string& value,
                             const std::string& limit) {
    std::string s = kind + ": " + object + ": " + quantity;
    if (!value.empty()) s += " = " + value;
    if (!limit.empty()) s += " (limit: " + limit + ")";
    return s;
  }

  std::string kind_, object_, quantity_, value_, limit_;
};

#define CABLEDYN_DEFINE_ERROR(Name, Doc)                                                  \
  /** Doc */                                                                              \
  class Name : public Error {                                                             \
   public:                                                                                \
    template <class V>                                                                    \
    Name(std::string object, std::string quantity, const V& value, std::string limit)     \
        : Error(#Name, std::move(object), std::move(quantity), to_text(value),            \
                std::move(limit)) {}                                                      \
  };

/// Bad user input: a parameter, a deck field, a geometry that the model cannot accept.
class InputError : public Error {
 public:
  template <class V>
  InputError(std::string object, std::string quantity, const V& value, std::string limit)
      : Error("InputError", std::move(object), std::move(quantity), to_text(value), std::move(limit)) {}

 protected:
  template <class V>
  InputError(std::string kind, std::string object, std::string quantity, const V& value, std::string limit)
      : Error(std::move(kind), std::move(object), std::move(quantity), to_text(value), std::move(limit)) {}
};

/// Valid input that asks for a model the library does not implement yet (free points,
/// bodies, viscoelastic EA, seabed friction, ...): an InputError whose `feature()` names the
/// missing feature and whose limit reads "not implemented: <feature>[; detail]". The
/// `cabledyn` driver exits with status 3 on it, so that scripts tell a refusal for a missing
/// feature from a bad deck.
class NotImplementedError : public InputError {
 public:
  template <class V>
  NotImplementedError(std::string object, std::string quantity, const V& value, std::string feature,
                      const std::string& detail = "")
      : InputError("NotImplementedError", std::move(object), std::move(quantity), value,
                   "not implemented: " + feature + (detail.empty() ? std::string() : "; " + detail)),
        feature_(std::move(feature)) {}

  /// The missing feature, e.g. "free points (Free/Connect)".
  const std::string& feature() const noexcept { return feature_; }

 private:
  std::string feature_;
};
/// A solver that did not converge or met a singular system.
CABLEDYN_DEFINE_ERROR(SolveError, A solver failed)
/// A state outside the model's validity met during a computation (a zero-length chord, a
/// wave trough below the bed).
CABLEDYN_DEFINE_ERROR(DomainError, A state outside the model)
/// A run stopped on request (the driver's SIGINT) after its last committed step.
CABLEDYN_DEFINE_ERROR(InterruptedError, A run stopped on request)

#undef CABLEDYN_DEFINE_ERROR

namespace detail {
/// Throws InputError unless `ok`.
template <class V>
inline void require(bool ok, const std::string& object, const char* quantity, const V& value,
                    const char* limit) {
  if (!ok) throw InputError(object, quantity, value, limit);
}
}  // namespace detail

}  // namespace cabledyn
