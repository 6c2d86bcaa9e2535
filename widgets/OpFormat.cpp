#include "widgets/OpFormat.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include <QCoreApplication>
#include <QStringList>

#include "core/ir/dtype.h"

namespace ec::widgets {
namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

template <typename T>
QString listText(const std::vector<T>& v, const QString& sep, std::size_t max_items = 8) {
  QStringList parts;
  for (std::size_t i = 0; i < v.size() && i < max_items; ++i) {
    if constexpr (std::is_same_v<T, std::string>) {
      parts << qs(v[i]);
    } else {
      parts << QString::number(v[i]);
    }
  }
  if (v.size() > max_items) parts << QStringLiteral("…");
  return parts.join(sep);
}

template <typename T>
void accumulate(std::span<const T> values, TensorStats& s, int bins) {
  s.count = values.size();
  if (values.empty()) return;
  double lo = std::numeric_limits<double>::max(), hi = std::numeric_limits<double>::lowest();
  double sum = 0, sum2 = 0;
  std::size_t finite = 0;
  for (const T v : values) {
    const double d = double(v);
    if (!std::isfinite(d)) continue;
    ++finite;
    lo = std::min(lo, d);
    hi = std::max(hi, d);
    sum += d;
    sum2 += d * d;
  }
  if (finite == 0) return;
  s.min = lo;
  s.max = hi;
  s.mean = sum / double(finite);
  s.stddev = std::sqrt(std::max(0.0, sum2 / double(finite) - s.mean * s.mean));
  s.histogram.assign(std::size_t(bins), 0);
  const double width = hi > lo ? (hi - lo) / bins : 1.0;
  for (const T v : values) {
    const double d = double(v);
    if (!std::isfinite(d)) continue;
    const int b = std::min(bins - 1, int((d - lo) / width));
    ++s.histogram[std::size_t(b)];
  }
}

}  // namespace

QString attributeText(const ec::ir::Attribute& a) {
  using namespace ec::ir;
  return std::visit(
      [](const auto& v) -> QString {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::int64_t>) {
          return QString::number(v);
        } else if constexpr (std::is_same_v<T, double>) {
          return QString::number(v, 'g', 6);
        } else if constexpr (std::is_same_v<T, std::string>) {
          return qs(v);
        } else if constexpr (std::is_same_v<T, TensorValue>) {
          QStringList dims;
          for (auto d : v.shape) dims << QString::number(d);
          return QStringLiteral("tensor ") % QLatin1String(dtype_name(v.dtype)) % QLatin1Char('[') %
                 dims.join(QLatin1Char(',')) % QLatin1Char(']');
        } else {
          return QLatin1Char('[') % listText(v, QStringLiteral(",")) % QLatin1Char(']');
        }
      },
      a);
}

namespace {
const std::vector<std::int64_t>* intsOf(const ec::ir::Operation& op, const char* key) {
  const ec::ir::Attribute* a = op.attr(key);
  return a ? std::get_if<std::vector<std::int64_t>>(a) : nullptr;
}

bool uniform(const std::vector<std::int64_t>& v) {
  return !v.empty() && std::all_of(v.begin(), v.end(), [&](auto x) { return x == v.front(); });
}

/// ONNX orders pads [x1_begin, x2_begin, ..., x1_end, x2_end]: for an image that is
/// top, left, bottom, right. "1" when all are equal; "0/0/1/1" (t/l/b/r) for 2-D;
/// "1/2" (begin/end) for 1-D; "0,1,1/0,1,1" (begins/ends) otherwise.
QString padsText(const std::vector<std::int64_t>& pads) {
  if (uniform(pads)) return QString::number(pads.front());
  if (pads.size() == 4 || pads.size() == 2) return listText(pads, QStringLiteral("/"));
  const auto half = std::ptrdiff_t(pads.size() / 2);
  return listText(std::vector<std::int64_t>(pads.begin(), pads.begin() + half), QStringLiteral(",")) %
         QLatin1Char('/') %
         listText(std::vector<std::int64_t>(pads.begin() + half, pads.end()), QStringLiteral(","));
}

QString sizesText(const std::vector<std::int64_t>& v) {
  return uniform(v) && v.size() > 1 && v.front() != 1 ? QString::number(v.front())
                                                      : listText(v, QStringLiteral("×"));
}

QString trOp(const char* text) { return QCoreApplication::translate("ec::widgets::OpFormat", text); }
}  // namespace

QString keyAttributesText(const ec::ir::Operation& op) {
  // The attributes that say most about an op, named as the ops' own documentation
  // (ONNX) names them: kernel, strides, pads (top/left/bottom/right), group, dilations.
  // keyAttributesToolTip() spells them out.
  QStringList parts;
  if (const auto* k = intsOf(op, "kernel_shape")) parts << QStringLiteral("k ") % listText(*k, QStringLiteral("×"));
  if (const auto* s = intsOf(op, "strides"); s && !(uniform(*s) && s->front() == 1))
    parts << QStringLiteral("s ") % sizesText(*s);
  if (const auto* p = intsOf(op, "pads"); p && !(uniform(*p) && p->front() == 0))
    parts << QStringLiteral("pad ") % padsText(*p);
  if (const ec::ir::Attribute* g = op.attr("group")) {
    if (const auto* i = std::get_if<std::int64_t>(g); i && *i != 1) parts << QStringLiteral("g ") % QString::number(*i);
  }
  if (const auto* d = intsOf(op, "dilations"); d && !(uniform(*d) && d->front() == 1))
    parts << QStringLiteral("d ") % sizesText(*d);
  static const struct {
    const char* key;
    const char* shortName;
  } kOther[] = {{"axis", "axis"}, {"perm", "perm"}, {"epsilon", "eps"}};
  for (const auto& k : kOther) {
    if (parts.size() >= 3) break;
    if (const ec::ir::Attribute* a = op.attr(k.key)) parts << QLatin1String(k.shortName) % QLatin1Char(' ') % attributeText(*a);
  }
  if (parts.isEmpty()) {
    for (const auto& [name, value] : op.attributes) {
      parts << qs(name) % QLatin1Char('=') % attributeText(value);
      if (parts.size() == 2) break;
    }
  }
  return parts.join(QStringLiteral(" · "));
}

QString keyAttributesToolTip(const ec::ir::Operation& op) {
  QStringList lines;
  if (const auto* k = intsOf(op, "kernel_shape"))
    lines << trOp(QT_TRANSLATE_NOOP("ec::widgets::OpFormat", "k: kernel size %1")).arg(listText(*k, QStringLiteral("×")));
  if (const auto* s = intsOf(op, "strides")) lines << trOp(QT_TRANSLATE_NOOP("ec::widgets::OpFormat", "s: stride %1")).arg(listText(*s, QStringLiteral("×")));
  if (const auto* p = intsOf(op, "pads")) {
    if (p->size() == 4) {
      lines << trOp(QT_TRANSLATE_NOOP("ec::widgets::OpFormat", "pad: padding top %1, left %2, bottom %3, right %4"))
                   .arg((*p)[0]).arg((*p)[1]).arg((*p)[2]).arg((*p)[3]);
    } else {
      lines << trOp(QT_TRANSLATE_NOOP("ec::widgets::OpFormat", "pad: padding at the start / end of each spatial axis %1")).arg(padsText(*p));
    }
  }
  if (const ec::ir::Attribute* g = op.attr("group")) {
    if (const auto* i = std::get_if<std::int64_t>(g))
      lines << trOp(QT_TRANSLATE_NOOP("ec::widgets::OpFormat", "g: groups %1 (input channels split into %1 groups)")).arg(*i);
  }
  if (const auto* d = intsOf(op, "dilations"))
    lines << trOp(QT_TRANSLATE_NOOP("ec::widgets::OpFormat", "d: dilation %1")).arg(listText(*d, QStringLiteral("×")));
  return lines.join(QLatin1Char('\n'));
}

QString tensorTypeText(const ec::ir::Tensor* t) {
  if (!t) return QStringLiteral("?");
  return QLatin1String(ec::ir::dtype_name(t->dtype)) % qs(t->shape.to_string());
}

ec::ir::OpCategory categoryOf(const ec::ir::Operation& op) {
  return op.is_known() ? ec::ir::op_info(op.kind).category : ec::ir::OpCategory::Unknown;
}

QColor categoryColor(ec::ir::OpCategory c) {
  using C = ec::ir::OpCategory;
  switch (c) {
    case C::Convolution:
      return QColor(0x9c, 0xc3, 0xe6);
    case C::Linear:
      return QColor(0x8f, 0xb8, 0xde);
    case C::Pooling:
      return QColor(0xb5, 0xd9, 0xa8);
    case C::Normalization:
      return QColor(0xc9, 0xb8, 0xe0);
    case C::Activation:
      return QColor(0xf3, 0xc2, 0x8c);
    case C::Elementwise:
      return QColor(0xe8, 0xe1, 0x9a);
    case C::Logic:
      return QColor(0xd9, 0xd9, 0xd9);
    case C::Reduction:
      return QColor(0xa8, 0xd8, 0xd0);
    case C::DataMovement:
      return QColor(0xe0, 0xe0, 0xe8);
    case C::Generator:
      return QColor(0xf0, 0xd0, 0xe0);
    case C::Quantization:
      return QColor(0xf2, 0xa6, 0xa6);
    case C::Recurrent:
      return QColor(0xb0, 0xc4, 0xde);
    case C::Misc:
      return QColor(0xe6, 0xe6, 0xe6);
    case C::Unknown:
      return QColor(0xff, 0xb3, 0x80);
  }
  return Qt::lightGray;
}

std::optional<TensorStats> constantStats(const ec::ir::Tensor& t, int bins) {
  if (!t.data) return std::nullopt;
  using ec::ir::DType;
  TensorStats s;
  const auto& d = *t.data;
  switch (t.dtype) {
    case DType::Float32:
      accumulate(d.as<float>(), s, bins);
      break;
    case DType::Float64:
      accumulate(d.as<double>(), s, bins);
      break;
    case DType::Int8:
      accumulate(d.as<std::int8_t>(), s, bins);
      break;
    case DType::UInt8:
      accumulate(d.as<std::uint8_t>(), s, bins);
      break;
    case DType::Int16:
      accumulate(d.as<std::int16_t>(), s, bins);
      break;
    case DType::Int32:
      accumulate(d.as<std::int32_t>(), s, bins);
      break;
    case DType::Int64:
      accumulate(d.as<std::int64_t>(), s, bins);
      break;
    default:
      return std::nullopt;
  }
  return s;
}

QColor viridis(double t) {
  static const QColor kStops[] = {QColor(0x44, 0x01, 0x54), QColor(0x3b, 0x52, 0x8b),
                                  QColor(0x21, 0x91, 0x8c), QColor(0x5e, 0xc9, 0x62),
                                  QColor(0xfd, 0xe7, 0x25)};
  if (!std::isfinite(t)) return QColor(0xe4, 0xe6, 0xea);
  t = std::clamp(t, 0.0, 1.0) * 4;
  const int i = std::min(3, int(t));
  const double f = t - i;
  const QColor& a = kStops[i];
  const QColor& b = kStops[i + 1];
  return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * f),
                          float(a.greenF() + (b.greenF() - a.greenF()) * f),
                          float(a.blueF() + (b.blueF() - a.blueF()) * f));
}

}  // namespace ec::widgets
