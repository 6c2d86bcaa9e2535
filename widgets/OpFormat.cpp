#include "widgets/OpFormat.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

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

QString keyAttributesText(const ec::ir::Operation& op) {
  // Short names for the attributes that say most about an op; others by their own name.
  static const struct {
    const char* key;
    const char* shortName;
  } kKnown[] = {{"kernel_shape", "k"}, {"strides", "s"}, {"group", "g"},     {"axis", "axis"},
                {"perm", "perm"},      {"pads", "p"},    {"dilations", "d"}, {"epsilon", "eps"}};
  QStringList parts;
  for (const auto& k : kKnown) {
    const ec::ir::Attribute* a = op.attr(k.key);
    if (!a) continue;
    QString text;
    if (const auto* ints = std::get_if<std::vector<std::int64_t>>(a)) {
      // 3×3 for kernels and strides; leave pads as a list.
      const bool uniform = !ints->empty() && std::all_of(ints->begin(), ints->end(), [&](auto x) {
        return x == ints->front();
      });
      if (std::string_view(k.key) == "pads" || std::string_view(k.key) == "dilations") {
        if (uniform && ints->front() == (std::string_view(k.key) == "pads" ? 0 : 1)) continue;
      }
      if (std::string_view(k.key) == "strides" && uniform && ints->front() == 1) continue;
      text = std::string_view(k.key) == "perm" ? attributeText(*a)
                                               : listText(*ints, QStringLiteral("×"));
    } else if (const auto* i = std::get_if<std::int64_t>(a)) {
      if (std::string_view(k.key) == "group" && *i == 1) continue;
      text = QString::number(*i);
    } else {
      text = attributeText(*a);
    }
    parts << QLatin1String(k.shortName) % QLatin1Char(' ') % text;
    if (parts.size() == 3) break;
  }
  if (parts.isEmpty()) {
    for (const auto& [name, value] : op.attributes) {
      parts << qs(name) % QLatin1Char('=') % attributeText(value);
      if (parts.size() == 2) break;
    }
  }
  return parts.join(QStringLiteral(" · "));
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
