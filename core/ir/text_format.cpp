// The IR text form: printer and parser. docs/IR_TEXT_FORMAT.md has the same
// grammar with examples. Whitespace (spaces, tabs, CR, LF) separates tokens
// anywhere; `//` starts a comment running to the end of the line.
//
//   file      := 'graph' STRING ['version' INT] '{' stmt* '}'
//   stmt      := 'meta' key '=' STRING
//              | 'input' tname [':' type]            -- appends to Graph::inputs
//              | 'const' tname ':' type '=' data     -- declares a constant tensor
//              | 'tensor' tname ':' type             -- declares any other tensor
//              | 'output' tname                      -- appends to Graph::outputs
//              | op
//   op        := outs '=' optype ['<' (IDENT | '?') '>'] '(' [tname (',' tname)*] ')'
//                ['{' [attr (',' attr)*] '}'] [quant] [':' otype (',' otype)*] ['@' opname]
//   outs      := tname (',' tname)* | '(' ')'            -- '()' = an op with no outputs
//   otype     := type | '-'                              -- '-' = no tensor declared here
//   type      := DTYPE shape [quant]                     -- f32[1,3,?,batch] ; i8[*] quant(...)
//   shape     := '[' '*' ']' | '[' [dim (',' dim)*] ']'  -- '[*]' = unknown rank, '[]' = scalar
//   dim       := INT | '?' | key ['=' INT]               -- key = named dynamic dim (or named
//   static) quant     := 'quant' '(' DTYPE ',' 'scales' '=' '[' FLOAT,* ']' ','
//                'zero_points' '=' '[' INT,* ']' ',' 'axis' '=' INT ')'
//   attr      := key '=' value
//   value     := INT | FLOAT | STRING | list | 'tensor' '(' DTYPE ',' '[' INT,* ']' ',' data ')'
//   list      := ['ints' | 'floats' | 'strings'] '[' [elem (',' elem)*] ']'
//   data      := 'hex' STRING-of-hex-digits | 'elided' '(' INT 'bytes' ')'
//   tname     := '%' (NAME | STRING)                     -- %x, %"onnx::Conv_1", %"" (empty)
//   opname    := NAME | STRING
//   key, optype := IDENT | STRING
//
//   IDENT  = [A-Za-z_][A-Za-z0-9_.]*        NAME = [A-Za-z0-9_./-]+
//   STRING = "..." with escapes \" \\ \n \t \r \xHH; no raw line breaks.
//   INT    = -?[0-9]+ (int64).  FLOAT = what std::to_chars prints (shortest round-trip
//            form, plus ".0" when it would look like an integer), or inf, -inf, nan.
//
// Where a tensor is declared (each tensor of Graph::tensors exactly once):
// constants in `const` lines (sorted by name); otherwise the first `input`
// line naming it; otherwise the first op output naming it (its type after the
// ':'); otherwise a `tensor` line. Every other mention prints without a type.
// The op type names its kind; `<Kind>` / `<?>` follows only when the stored
// kind is not the one its op_type names. Attribute lists print without their
// kind prefix unless empty (`ints[]`); floats always print as floats.
// Print order: meta, inputs, consts, tensors, ops (in order), outputs.
#include "core/ir/text_format.h"

#include "core/ir/excerpt.h"

#include <charconv>
#include <cstring>
#include <unordered_set>

#include "core/errors.h"

namespace ec::ir {
namespace {

bool is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(int c) { return c >= '0' && c <= '9'; }
bool is_ident_start(int c) { return is_alpha(c) || c == '_'; }
bool is_ident_char(int c) { return is_alpha(c) || is_digit(c) || c == '_' || c == '.'; }
bool is_name_char(int c) { return is_ident_char(c) || c == '/' || c == '-'; }
bool is_number_char(int c) { return is_ident_char(c) || c == '+' || c == '-'; }

bool is_ident(std::string_view s) {
  if (s.empty() || !is_ident_start(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!is_ident_char(static_cast<unsigned char>(c))) return false;
  return true;
}

bool is_bare_name(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!is_name_char(static_cast<unsigned char>(c))) return false;
  return true;
}

constexpr char kHex[] = "0123456789abcdef";

// ---------------------------------------------------------------- printing

void append_quoted(std::string& out, std::string_view s) {
  out += '"';
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20 || c == 0x7f) {
          out += "\\x";
          out += kHex[c >> 4];
          out += kHex[c & 15];
        } else {
          out += ch;  // bytes >= 0x80 (UTF-8) pass through unchanged
        }
    }
  }
  out += '"';
}

void append_ident_or_quoted(std::string& out, std::string_view s) {
  if (is_ident(s))
    out += s;
  else
    append_quoted(out, s);
}

void append_tname(std::string& out, std::string_view s) {
  out += '%';
  if (is_bare_name(s))
    out += s;
  else
    append_quoted(out, s);
}

void append_int(std::string& out, std::int64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

void append_double(std::string& out, double v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  std::string_view t(buf, static_cast<std::size_t>(r.ptr - buf));
  out += t;
  // "1" would read back as an int attribute: keep floats recognisable.
  if (t.find_first_not_of("-0123456789") == std::string_view::npos) out += ".0";
}

void append_float(std::string& out, float v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

void append_hex(std::string& out, const ConstantData& d) {
  out += "hex\"";
  const std::size_t start = out.size();
  out.resize(start + 2 * d.size());
  char* p = out.data() + start;
  for (std::byte b : d.bytes()) {
    auto v = std::to_integer<unsigned>(b);
    *p++ = kHex[v >> 4];
    *p++ = kHex[v & 15];
  }
  out += '"';
}

void append_data(std::string& out, const ConstantData& d, const PrintOptions& opts) {
  if (d.size() > opts.elide_constants_above) {
    out += "elided(";
    append_int(out, static_cast<std::int64_t>(d.size()));
    out += " bytes)";
  } else {
    append_hex(out, d);
  }
}

void append_shape(std::string& out, const Shape& s) {
  if (!s.rank_known) {
    out += "[*]";
    return;
  }
  out += '[';
  for (std::size_t i = 0; i < s.dims.size(); ++i) {
    if (i) out += ',';
    const Dim& d = s.dims[i];
    if (!d.symbol.empty()) {
      append_ident_or_quoted(out, d.symbol);
      if (d.is_static()) {
        out += '=';
        append_int(out, d.value);
      }
    } else if (d.is_static()) {
      append_int(out, d.value);
    } else {
      out += '?';
    }
  }
  out += ']';
}

void append_quant(std::string& out, const QuantParams& q) {
  out += "quant(";
  out += dtype_name(q.dtype);
  out += ", scales=[";
  for (std::size_t i = 0; i < q.scales.size(); ++i) {
    if (i) out += ',';
    append_float(out, q.scales[i]);
  }
  out += "], zero_points=[";
  for (std::size_t i = 0; i < q.zero_points.size(); ++i) {
    if (i) out += ',';
    append_int(out, q.zero_points[i]);
  }
  out += "], axis=";
  append_int(out, q.axis);
  out += ')';
}

void append_type(std::string& out, const Tensor& t) {
  out += dtype_name(t.dtype);
  append_shape(out, t.shape);
  if (t.quant) {
    out += ' ';
    append_quant(out, *t.quant);
  }
}

void append_attr_value(std::string& out, const Attribute& a, const PrintOptions& opts) {
  switch (attr_kind(a)) {
    case AttrKind::Int:
      append_int(out, std::get<std::int64_t>(a));
      break;
    case AttrKind::Float:
      append_double(out, std::get<double>(a));
      break;
    case AttrKind::String:
      append_quoted(out, std::get<std::string>(a));
      break;
    case AttrKind::Ints: {
      const auto& v = std::get<std::vector<std::int64_t>>(a);
      if (v.empty()) out += "ints";
      out += '[';
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (i) out += ',';
        append_int(out, v[i]);
      }
      out += ']';
      break;
    }
    case AttrKind::Floats: {
      const auto& v = std::get<std::vector<double>>(a);
      if (v.empty()) out += "floats";
      out += '[';
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (i) out += ',';
        append_double(out, v[i]);
      }
      out += ']';
      break;
    }
    case AttrKind::Strings: {
      const auto& v = std::get<std::vector<std::string>>(a);
      if (v.empty()) out += "strings";
      out += '[';
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (i) out += ',';
        append_quoted(out, v[i]);
      }
      out += ']';
      break;
    }
    case AttrKind::Tensor: {
      const auto& t = std::get<TensorValue>(a);
      out += "tensor(";
      out += dtype_name(t.dtype);
      out += ", [";
      for (std::size_t i = 0; i < t.shape.size(); ++i) {
        if (i) out += ',';
        append_int(out, t.shape[i]);
      }
      out += "], ";
      append_data(out, t.data, opts);
      out += ')';
      break;
    }
  }
}

class Printer {
 public:
  Printer(const Graph& g, const PrintOptions& opts) : g_(g), opts_(opts) {}

  std::string run() {
    // Constants are declared in their own section, so they count as declared from the start.
    for (const auto& [name, t] : g_.tensors)
      if (t.is_constant()) declared_.insert(&t);

    std::string head;
    head += "graph ";
    append_quoted(head, g_.name);
    head += " version ";
    append_int(head, g_.version);
    head += " {\n";
    for (const auto& [k, v] : g_.metadata) {
      head += "  meta ";
      append_quoted(head, k);
      head += " = ";
      append_quoted(head, v);
      head += '\n';
    }
    for (const std::string& in : g_.inputs) {
      head += "  input ";
      append_tname(head, in);
      if (const Tensor* t = declare(in)) {
        head += " : ";
        append_type(head, *t);
      }
      head += '\n';
    }
    const auto by_name = g_.tensors.by_name();  // the text form lists tensors in name order
    for (const auto* entry : by_name) {
      const auto& [name, t] = *entry;
      if (!t.is_constant()) continue;
      head += "  const ";
      append_tname(head, name);
      head += " : ";
      append_type(head, t);
      head += " = ";
      append_data(head, *t.data, opts_);
      head += '\n';
    }

    std::string body;
    for (const Operation& op : g_.ops) append_op(body, op);

    // Tensors no input, constant or op output declared: typed intermediates left over.
    for (const auto* entry : by_name) {
      const auto& [name, t] = *entry;
      if (declared_.count(&t)) continue;
      head += "  tensor ";
      append_tname(head, name);
      head += " : ";
      append_type(head, t);
      head += '\n';
    }
    head += body;
    for (const std::string& out : g_.outputs) {
      head += "  output ";
      append_tname(head, out);
      head += '\n';
    }
    head += "}\n";
    return head;
  }

 private:
  // The tensor to declare at this mention, or nullptr when it is absent or declared already.
  const Tensor* declare(const std::string& name) {
    const Tensor* t = g_.find_tensor(name);
    if (!t || !declared_.insert(t).second) return nullptr;
    return t;
  }

  void append_op(std::string& out, const Operation& op) {
    out += "  ";
    if (op.outputs.empty()) out += "()";
    for (std::size_t i = 0; i < op.outputs.size(); ++i) {
      if (i) out += ", ";
      append_tname(out, op.outputs[i]);
    }
    out += " = ";
    append_ident_or_quoted(out, op.op_type);
    OpKind named = op_kind_from_name(op.op_type).value_or(OpKind::Unknown);
    if (named != op.kind) {
      out += '<';
      out += op.kind == OpKind::Unknown ? std::string_view("?") : op_info(op.kind).name;
      out += '>';
    }
    out += '(';
    for (std::size_t i = 0; i < op.inputs.size(); ++i) {
      if (i) out += ", ";
      append_tname(out, op.inputs[i]);
    }
    out += ')';
    if (!op.attributes.empty()) {
      out += " {";
      bool first = true;
      for (const auto& [key, value] : op.attributes) {
        if (!first) out += ", ";
        first = false;
        append_ident_or_quoted(out, key);
        out += " = ";
        append_attr_value(out, value, opts_);
      }
      out += '}';
    }
    if (op.quant) {
      out += ' ';
      append_quant(out, *op.quant);
    }
    if (!op.outputs.empty()) {
      out += " : ";
      for (std::size_t i = 0; i < op.outputs.size(); ++i) {
        if (i) out += ", ";
        if (const Tensor* t = declare(op.outputs[i]))
          append_type(out, *t);
        else
          out += '-';
      }
    }
    if (!op.name.empty()) {
      out += " @";
      append_quoted(out, op.name);
    }
    out += '\n';
  }

  const Graph& g_;
  const PrintOptions& opts_;
  std::unordered_set<const Tensor*> declared_;
};

// ---------------------------------------------------------------- parsing

class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  Graph run() {
    Graph g;
    skip_ws();
    if (!at_keyword("graph")) fail("expected 'graph' at the start of the text, got " + next_desc());
    pos_ += 5;
    g.name = read_string("after 'graph' (the graph's name)");
    if (at_keyword("version")) {
      pos_ += 7;
      g.version = read_int("after 'version'");
    }
    expect('{', "to open the graph's body");
    for (;;) {
      skip_ws();
      int c = peek();
      if (c < 0) fail("unexpected end of input: missing '}' to close the graph");
      if (c == '}') {
        ++pos_;
        break;
      }
      if (c == '%' || c == '(') {
        parse_op(g);
        continue;
      }
      if (!is_ident_start(c)) fail("expected a statement, got " + next_desc());
      const std::size_t stmt_line = line_;
      std::string kw = read_ident("a statement");
      if (kw == "meta") {
        std::string key = read_key("metadata key");
        expect('=', "after the metadata key");
        std::string value = read_string("as the metadata value");
        if (!g.metadata.emplace(std::move(key), std::move(value)).second)
          fail_at(stmt_line, "metadata key given twice");
      } else if (kw == "input") {
        std::string name = read_tname();
        if (accept(':')) declare(g, name, read_type(), stmt_line);
        g.inputs.push_back(std::move(name));
      } else if (kw == "output") {
        g.outputs.push_back(read_tname());
      } else if (kw == "tensor") {
        std::string name = read_tname();
        expect(':', "after the tensor name");
        declare(g, name, read_type(), stmt_line);
      } else if (kw == "const") {
        std::string name = read_tname();
        expect(':', "after the constant's name");
        Tensor t = read_type();
        expect('=', "before the constant's data");
        t.data = read_data("constant " + tname_text(name));
        declare(g, name, std::move(t), stmt_line);
      } else {
        fail_at(stmt_line, "unknown statement '" + kw +
                               "'; expected meta, input, const, tensor, output or an op");
      }
    }
    skip_ws();
    if (peek() >= 0) fail("unexpected text after the graph's closing '}': " + next_desc());
    return g;
  }

 private:
  [[noreturn]] void fail_at(std::size_t line, const std::string& what) const {
    throw GraphError("line " + std::to_string(line) + ": " + bounded_message(what));
  }
  [[noreturn]] void fail(const std::string& what) const { fail_at(line_, what); }

  int peek() const { return pos_ < s_.size() ? static_cast<unsigned char>(s_[pos_]) : -1; }

  void skip_ws() {
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (c == '\n') {
        ++line_;
        ++pos_;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        ++pos_;
      } else if (c == '/' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '/') {
        while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
      } else {
        break;
      }
    }
  }

  // A short, printable description of what comes next, for error messages.
  std::string next_desc() {
    skip_ws();
    if (pos_ >= s_.size()) return "end of input";
    std::size_t end = pos_;
    while (end < s_.size() && end - pos_ < 20 && s_[end] != ' ' && s_[end] != '\n' &&
           s_[end] != '\t' && s_[end] != '\r')
      ++end;
    if (end == pos_) end = pos_ + 1;
    std::string out;
    append_quoted(out, s_.substr(pos_, end - pos_));
    out.front() = '\'';
    out.back() = '\'';
    return out;
  }

  bool at_keyword(std::string_view kw) {
    skip_ws();
    if (s_.substr(pos_, kw.size()) != kw) return false;
    std::size_t after = pos_ + kw.size();
    return after >= s_.size() || !is_ident_char(static_cast<unsigned char>(s_[after]));
  }

  bool accept(char c) {
    skip_ws();
    if (peek() != static_cast<unsigned char>(c)) return false;
    ++pos_;
    return true;
  }

  void expect(char c, const char* context) {
    if (!accept(c)) fail(std::string("expected '") + c + "' " + context + ", got " + next_desc());
  }

  std::string read_ident(const char* what) {
    skip_ws();
    if (!is_ident_start(peek())) fail(std::string("expected ") + what + ", got " + next_desc());
    std::size_t start = pos_;
    while (is_ident_char(peek())) ++pos_;
    return std::string(s_.substr(start, pos_ - start));
  }

  // A quoted string; the cursor must be on the opening quote (after skip_ws).
  std::string read_quoted() {
    std::string out;
    ++pos_;  // opening quote
    for (;;) {
      if (pos_ >= s_.size()) fail("unterminated string");
      char c = s_[pos_++];
      if (c == '"') return out;
      if (c == '\n') fail("unterminated string (strings cannot span lines; use \\n)");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size()) fail("unterminated string");
      char e = s_[pos_++];
      switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case 'r':
          out += '\r';
          break;
        case 'x': {
          int hi = pos_ < s_.size() ? hex_value(s_[pos_]) : -1;
          int lo = pos_ + 1 < s_.size() ? hex_value(s_[pos_ + 1]) : -1;
          if (hi < 0 || lo < 0) fail("'\\x' in a string needs two hex digits");
          out += static_cast<char>(hi * 16 + lo);
          pos_ += 2;
          break;
        }
        default:
          if (e == '\n') fail("unterminated string (strings cannot span lines; use \\n)");
          fail(std::string("unknown escape '\\") +
               (e >= 0x20 && e < 0x7f ? std::string(1, e) : "?") + "' in a string");
      }
    }
  }

  static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  std::string read_string(const char* context) {
    skip_ws();
    if (peek() != '"')
      fail(std::string("expected a quoted string ") + context + ", got " + next_desc());
    return read_quoted();
  }

  // IDENT or STRING.
  std::string read_key(const char* what) {
    skip_ws();
    if (peek() == '"') return read_quoted();
    return read_ident(what);
  }

  // '%' followed directly by a NAME or a STRING.
  std::string read_tname() {
    skip_ws();
    if (peek() != '%') fail("expected a tensor name ('%name'), got " + next_desc());
    ++pos_;
    return read_bare_or_quoted_name("a tensor name after '%'");
  }

  std::string read_bare_or_quoted_name(const char* what) {
    if (peek() == '"') return read_quoted();
    std::size_t start = pos_;
    while (is_name_char(peek())) ++pos_;
    if (pos_ == start) fail(std::string("expected ") + what + ", got " + next_desc());
    return std::string(s_.substr(start, pos_ - start));
  }

  static std::string tname_text(const std::string& name) {
    std::string out;
    append_tname(out, name);
    return out;
  }

  std::string_view read_number_token(const char* what) {
    skip_ws();
    std::size_t start = pos_;
    while (is_number_char(peek())) ++pos_;
    if (pos_ == start) fail(std::string("expected ") + what + ", got " + next_desc());
    return s_.substr(start, pos_ - start);
  }

  static bool looks_float(std::string_view tok) {
    return tok.find_first_not_of("-+0123456789") != std::string_view::npos;
  }

  std::int64_t to_int(std::string_view tok, const char* what) {
    std::int64_t v = 0;
    auto r = std::from_chars(tok.data(), tok.data() + tok.size(), v);
    if (r.ec == std::errc::result_out_of_range)
      fail("integer '" + std::string(tok) + "' is out of range");
    if (r.ec != std::errc() || r.ptr != tok.data() + tok.size())
      fail(std::string("expected ") + what + ", got '" + std::string(tok) + "'");
    return v;
  }

  template <typename F>
  F to_floating(std::string_view tok) {
    F v{};
    auto r = std::from_chars(tok.data(), tok.data() + tok.size(), v);
    // Out-of-range literals are refused: the printer never writes them.
    if (r.ec != std::errc() || r.ptr != tok.data() + tok.size())
      fail("invalid number '" + std::string(tok) + "'");
    return v;
  }

  std::int64_t read_int(const char* context) {
    return to_int(read_number_token(context), "an integer");
  }

  Tensor read_type() {
    Tensor t;
    std::string dt = read_ident("a dtype (f32, i8, ...)");
    auto dtype = dtype_from_name(dt);
    if (!dtype) fail("unknown dtype '" + dt + "'");
    t.dtype = *dtype;
    t.shape = read_shape();
    if (at_keyword("quant")) t.quant = read_quant();
    return t;
  }

  Shape read_shape() {
    // The shape follows the dtype directly: "f32[1,3]".
    if (peek() != '[') fail("expected '[' right after the dtype, got " + next_desc());
    ++pos_;
    Shape shape;
    if (accept('*')) {
      expect(']', "after '*' (unknown rank)");
      return Shape::unknown_rank();
    }
    if (accept(']')) return shape;
    do {
      skip_ws();
      int c = peek();
      if (c == '?') {
        ++pos_;
        shape.dims.push_back(Dim::unknown());
      } else if (is_digit(c) || c == '-' || c == '+') {
        std::int64_t v = read_int("a dimension");
        if (v < 0) fail("dimension " + std::to_string(v) + " is negative; use '?' or a name");
        shape.dims.push_back(Dim::fixed(v));
      } else if (c == '"' || is_ident_start(c)) {
        Dim d = Dim::named(read_key("a dimension"));
        if (accept('=')) {
          d.value = read_int("a dimension size after '='");
          if (d.value < 0) fail("dimension " + std::to_string(d.value) + " is negative");
        }
        shape.dims.push_back(std::move(d));
      } else {
        fail("expected a dimension (a size, '?' or a name), got " + next_desc());
      }
    } while (accept(','));
    expect(']', "to close the shape");
    return shape;
  }

  void expect_word(std::string_view word) {
    if (!at_keyword(word)) fail("expected '" + std::string(word) + "', got " + next_desc());
    pos_ += word.size();
  }

  QuantParams read_quant() {
    QuantParams q;
    expect_word("quant");
    expect('(', "after 'quant'");
    std::string dt = read_ident("the quantised dtype");
    auto dtype = dtype_from_name(dt);
    if (!dtype) fail("unknown dtype '" + dt + "'");
    q.dtype = *dtype;
    expect(',', "after the quantised dtype");
    expect_word("scales");
    expect('=', "after 'scales'");
    expect('[', "to open the scales");
    if (!accept(']')) {
      do q.scales.push_back(to_floating<float>(read_number_token("a scale")));
      while (accept(','));
      expect(']', "to close the scales");
    }
    expect(',', "after the scales");
    expect_word("zero_points");
    expect('=', "after 'zero_points'");
    expect('[', "to open the zero points");
    if (!accept(']')) {
      do q.zero_points.push_back(read_int("a zero point"));
      while (accept(','));
      expect(']', "to close the zero points");
    }
    expect(',', "after the zero points");
    expect_word("axis");
    expect('=', "after 'axis'");
    std::int64_t axis = read_int("the axis");
    if (axis < -1 || axis > 1'000'000)
      fail("quantisation axis " + std::to_string(axis) + " is out of range");
    q.axis = static_cast<int>(axis);
    expect(')', "to close 'quant('");
    return q;
  }

  // hex"..." or elided(N bytes); `what` names the value in the elision error.
  ConstantData read_data(const std::string& what) {
    const std::size_t at = line_;
    std::string word = read_ident("constant data (hex\"...\")");
    if (word == "elided") {
      fail_at(at, what + " was elided; print without elision to round-trip");
    }
    if (word != "hex" || peek() != '"') fail_at(at, "expected hex\"...\" constant data");
    ++pos_;
    std::size_t start = pos_;
    while (pos_ < s_.size() && s_[pos_] != '"') {
      if (hex_value(s_[pos_]) < 0) fail("invalid hex digit in constant data");
      ++pos_;
    }
    if (pos_ >= s_.size()) fail("unterminated hex string");
    std::size_t digits = pos_ - start;
    ++pos_;
    if (digits % 2) fail("odd number of hex digits in constant data");
    std::vector<std::byte> bytes(digits / 2);
    for (std::size_t i = 0; i < bytes.size(); ++i)
      bytes[i] = static_cast<std::byte>(hex_value(s_[start + 2 * i]) * 16 +
                                        hex_value(s_[start + 2 * i + 1]));
    return ConstantData::from_vector(std::move(bytes));
  }

  void declare(Graph& g, const std::string& name, Tensor t, std::size_t line) {
    t.name = name;
    if (!g.tensors.emplace(name, std::move(t)).second)
      fail_at(line, "tensor " + tname_text(name) + " is declared twice");
  }

  void parse_op(Graph& g) {
    const std::size_t op_line = line_;
    Operation op;
    if (accept('(')) {
      expect(')', "after '(' (an op with no outputs is written '() = Op(...)')");
    } else {
      do op.outputs.push_back(read_tname());
      while (accept(','));
    }
    expect('=', "after the op's outputs");
    op.op_type = read_key("an op type");
    op.kind = op_kind_from_name(op.op_type).value_or(OpKind::Unknown);
    if (accept('<')) {
      if (accept('?')) {
        op.kind = OpKind::Unknown;
      } else {
        std::string k = read_ident("an op kind");
        auto kind = op_kind_from_name(k);
        if (!kind) fail("unknown op kind '" + k + "'");
        op.kind = *kind;
      }
      expect('>', "after the op kind");
    }
    expect('(', "to open the op's inputs");
    if (!accept(')')) {
      do op.inputs.push_back(read_tname());
      while (accept(','));
      expect(')', "to close the op's inputs");
    }
    if (accept('{')) {
      if (!accept('}')) {
        do {
          std::string key = read_key("an attribute name");
          expect('=', "after the attribute name");
          Attribute value = read_attr_value(key);
          if (!op.attributes.emplace(key, std::move(value)).second)
            fail("attribute '" + key + "' given twice");
        } while (accept(','));
        expect('}', "to close the attributes");
      }
    }
    if (at_keyword("quant")) op.quant = read_quant();
    if (accept(':')) {
      if (op.outputs.empty()) fail("an op with no outputs has no output types");
      std::size_t n = 0;
      do {
        if (n >= op.outputs.size())
          fail_at(op_line,
                  "more output types than outputs (" + std::to_string(op.outputs.size()) + ")");
        if (!accept('-')) declare(g, op.outputs[n], read_type(), line_);
        ++n;
      } while (accept(','));
      if (n != op.outputs.size())
        fail_at(op_line, "op has " + std::to_string(op.outputs.size()) + " outputs but " +
                             std::to_string(n) + " output types");
    }
    if (accept('@')) op.name = read_bare_or_quoted_name("an op name after '@'");
    g.ops.push_back(std::move(op));
  }

  Attribute read_attr_value(const std::string& key) {
    skip_ws();
    int c = peek();
    if (c == '"') return read_quoted();
    if (c == '[') return read_list(std::nullopt);
    if (at_keyword("ints")) {
      pos_ += 4;
      return read_list(AttrKind::Ints);
    }
    if (at_keyword("floats")) {
      pos_ += 6;
      return read_list(AttrKind::Floats);
    }
    if (at_keyword("strings")) {
      pos_ += 7;
      return read_list(AttrKind::Strings);
    }
    if (at_keyword("tensor")) {
      pos_ += 6;
      return read_tensor_value(key);
    }
    std::string_view tok = read_number_token("an attribute value");
    if (looks_float(tok)) return to_floating<double>(tok);
    return to_int(tok, "an attribute value");
  }

  Attribute read_list(std::optional<AttrKind> kind) {
    expect('[', "to open the list");
    std::vector<std::string> strings;
    std::vector<std::int64_t> ints;
    std::vector<double> floats;
    bool any_float = kind == AttrKind::Floats;
    bool is_strings = kind == AttrKind::Strings;
    if (!accept(']')) {
      skip_ws();
      if (!kind) is_strings = peek() == '"';
      do {
        skip_ws();
        if (is_strings) {
          if (peek() != '"') fail("expected a quoted string in a strings list, got " + next_desc());
          strings.push_back(read_quoted());
          continue;
        }
        std::string_view tok = read_number_token("a number in the list");
        if (looks_float(tok)) {
          if (kind == AttrKind::Ints) fail("'" + std::string(tok) + "' in an ints list");
          any_float = true;
          floats.push_back(to_floating<double>(tok));
          ints.push_back(0);
        } else {
          std::int64_t v = to_int(tok, "a number in the list");
          ints.push_back(v);
          floats.push_back(static_cast<double>(v));
        }
      } while (accept(','));
      expect(']', "to close the list");
    }
    if (is_strings) return strings;
    if (any_float) return floats;
    return ints;
  }

  Attribute read_tensor_value(const std::string& key) {
    expect('(', "after 'tensor'");
    TensorValue tv;
    std::string dt = read_ident("the tensor attribute's dtype");
    auto dtype = dtype_from_name(dt);
    if (!dtype) fail("unknown dtype '" + dt + "'");
    tv.dtype = *dtype;
    expect(',', "after the dtype");
    expect('[', "to open the tensor attribute's shape");
    if (!accept(']')) {
      do tv.shape.push_back(read_int("a dimension"));
      while (accept(','));
      expect(']', "to close the shape");
    }
    expect(',', "after the shape");
    tv.data = read_data("tensor attribute '" + key + "'");
    expect(')', "to close 'tensor('");
    return tv;
  }

  std::string_view s_;
  std::size_t pos_ = 0;
  std::size_t line_ = 1;
};

}  // namespace

std::string print(const Graph& g, const PrintOptions& opts) { return Printer(g, opts).run(); }

Graph parse(std::string_view text) { return Parser(text).run(); }

}  // namespace ec::ir
