// SPDX-License-Identifier: Apache-2.0
// SVG output for report::svg charts. Text widths are estimated (about 0.6 em
// per character in a sans-serif face), which is enough to lay out legends and
// keep tick labels apart.
#include "svg.hpp"

#include "format.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

namespace sealwire::bench::report::svg {
namespace {

constexpr double margin = 16;
constexpr const char* font = "DejaVu Sans, Helvetica, Arial, sans-serif";
constexpr const char* grid_colour = "#e3e3e3";
constexpr const char* axis_colour = "#444444";
constexpr const char* text_colour = "#222222";
constexpr const char* note_colour = "#666666";

std::string num(double v) { return fmt("%.1f", v); }

double text_width(const std::string& s, double size) {
  std::size_t chars = 0;
  for (const char c : s) chars += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  return static_cast<double>(chars) * size * 0.6;
}

struct writer {
  std::ostringstream out;

  void open(double w, double h) {
    out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(w) << "\" height=\"" << num(h)
        << "\" viewBox=\"0 0 " << num(w) << ' ' << num(h) << "\" font-family=\"" << font << "\">\n"
        << "<rect x=\"0\" y=\"0\" width=\"" << num(w) << "\" height=\"" << num(h) << "\" fill=\"#ffffff\"/>\n";
  }
  std::string close() {
    out << "</svg>\n";
    return out.str();
  }
  // anchor: start, middle or end; extra: further attributes.
  void text(double x, double y, const std::string& s, double size, const char* anchor = "start",
            const std::string& extra = "", const char* colour = text_colour) {
    out << "<text x=\"" << num(x) << "\" y=\"" << num(y) << "\" font-size=\"" << num(size) << "\" fill=\"" << colour
        << "\" text-anchor=\"" << anchor << '"' << (extra.empty() ? "" : " " + extra) << '>' << xml_escape(s)
        << "</text>\n";
  }
  void line(double x1, double y1, double x2, double y2, const char* colour, double width = 1) {
    out << "<line x1=\"" << num(x1) << "\" y1=\"" << num(y1) << "\" x2=\"" << num(x2) << "\" y2=\"" << num(y2)
        << "\" stroke=\"" << colour << "\" stroke-width=\"" << num(width) << "\"/>\n";
  }
  void mark(marker m, double cx, double cy, const std::string& colour, const std::string& tooltip = "") {
    const double r = 4.5;
    out << "<g>";
    if (!tooltip.empty()) out << "<title>" << xml_escape(tooltip) << "</title>";
    const std::string paint = "fill=\"" + colour + "\" stroke=\"#ffffff\" stroke-width=\"1\"";
    auto polygon = [&](std::initializer_list<std::pair<double, double>> pts) {
      out << "<polygon points=\"";
      for (const auto& [x, y] : pts) out << num(cx + x * r) << ',' << num(cy + y * r) << ' ';
      out << "\" " << paint << "/>";
    };
    switch (m) {
      case marker::circle:
        out << "<circle cx=\"" << num(cx) << "\" cy=\"" << num(cy) << "\" r=\"" << num(r) << "\" " << paint << "/>";
        break;
      case marker::square:
        out << "<rect x=\"" << num(cx - r * 0.9) << "\" y=\"" << num(cy - r * 0.9) << "\" width=\"" << num(r * 1.8)
            << "\" height=\"" << num(r * 1.8) << "\" " << paint << "/>";
        break;
      case marker::triangle: polygon({{0, -1.2}, {1.1, 0.8}, {-1.1, 0.8}}); break;
      case marker::triangle_down: polygon({{0, 1.2}, {1.1, -0.8}, {-1.1, -0.8}}); break;
      case marker::diamond: polygon({{0, -1.3}, {1.1, 0}, {0, 1.3}, {-1.1, 0}}); break;
      case marker::cross:
        out << "<path d=\"M" << num(cx - r) << ',' << num(cy - r) << " L" << num(cx + r) << ',' << num(cy + r) << " M"
            << num(cx - r) << ',' << num(cy + r) << " L" << num(cx + r) << ',' << num(cy - r) << "\" stroke=\""
            << colour << "\" stroke-width=\"2.2\"/>";
        break;
    }
    out << "</g>\n";
  }
};

// A linear axis from 0: the top value and the step between gridlines.
struct axis {
  double top = 1;
  double step = 0.2;
  int decimals = 1;
};

axis nice_axis(double max) {
  axis a;
  if (!(max > 0)) return a;
  const double raw = max / 5;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  a.step = 10 * mag;
  for (const double m : {1.0, 2.0, 2.5, 5.0}) {
    if (m * mag >= raw * (1 - 1e-9)) {
      a.step = m * mag;
      break;
    }
  }
  a.top = std::ceil(max / a.step - 1e-9) * a.step;
  if (a.top < max * 1.04) a.top += a.step;  // room above the highest point
  a.decimals = 0;
  while (a.decimals < 4) {
    const double scaled = a.step * std::pow(10.0, a.decimals);
    if (std::fabs(scaled - std::round(scaled)) < 1e-6) break;
    ++a.decimals;
  }
  return a;
}

std::string axis_label(double v, int decimals) {
  const std::string f = "%." + std::to_string(decimals) + "f";
  return fmt(f.c_str(), v);
}

// The legend: one entry per distinct series name, in rows centred on the
// figure. Returns the height used.
double legend(writer& w, const std::vector<std::pair<std::string, style>>& entries, double width, double y0) {
  constexpr double size = 13, sample = 30, gap = 22;
  std::vector<std::vector<std::size_t>> rows(1);
  std::vector<double> row_width(1, 0);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const double wi = sample + 6 + text_width(entries[i].first, size);
    if (!rows.back().empty() && row_width.back() + gap + wi > width - 2 * margin) {
      rows.emplace_back();
      row_width.push_back(0);
    }
    row_width.back() += (rows.back().empty() ? 0 : gap) + wi;
    rows.back().push_back(i);
  }
  double y = y0;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    double x = (width - row_width[r]) / 2;
    for (const std::size_t i : rows[r]) {
      const auto& [name, look] = entries[i];
      w.out << "<line x1=\"" << num(x) << "\" y1=\"" << num(y - 4) << "\" x2=\"" << num(x + sample) << "\" y2=\""
            << num(y - 4) << "\" stroke=\"" << look.colour << "\" stroke-width=\"2.2\""
            << (look.dashed ? " stroke-dasharray=\"6 4\"" : "") << "/>\n";
      w.mark(look.mark, x + sample / 2, y - 4, look.colour);
      w.text(x + sample + 6, y, name, size);
      x += sample + 6 + text_width(name, size) + gap;
    }
    y += 20;
  }
  return static_cast<double>(rows.size()) * 20;
}

}  // namespace

std::string render(const line_chart& chart) {
  const int columns = std::max(1, std::min<int>(chart.columns, static_cast<int>(chart.panels.size())));
  const int panel_rows = (static_cast<int>(chart.panels.size()) + columns - 1) / columns;
  const double pw = chart.panel_width, ph = chart.panel_height;
  const double width = 2 * margin + columns * pw;

  std::vector<std::pair<std::string, style>> entries;
  for (const auto& p : chart.panels) {
    for (const auto& s : p.lines) {
      if (std::none_of(entries.begin(), entries.end(), [&](const auto& e) { return e.first == s.name; })) {
        entries.emplace_back(s.name, s.look);
      }
    }
  }
  // Measure the legend's height first (drawn into a scratch writer).
  writer scratch;
  const double legend_height = legend(scratch, entries, width, 0);
  const double panels_top = 58 + legend_height;
  const double height = panels_top + panel_rows * ph + 30;

  writer w;
  w.open(width, height);
  w.text(width / 2, 30, chart.title, 18, "middle", "font-weight=\"bold\"");
  legend(w, entries, width, 60);

  for (std::size_t i = 0; i < chart.panels.size(); ++i) {
    const auto& p = chart.panels[i];
    const double ox = margin + static_cast<double>(static_cast<int>(i) % columns) * pw;
    const double oy = panels_top + static_cast<double>(static_cast<int>(i) / columns) * ph;
    const double left = ox + 64, right = ox + pw - 20, top = oy + 34, bottom = oy + ph - 56;

    std::set<double> xs;
    double ymax = 0;
    for (const auto& s : p.lines) {
      for (const auto& [x, y] : s.points) {
        if (x > 0) xs.insert(x);
        ymax = std::max(ymax, y);
      }
    }
    if (xs.empty()) continue;
    double llo = std::log10(*xs.begin()), lhi = std::log10(*xs.rbegin());
    if (lhi - llo < 1e-9) {
      llo -= 0.5;
      lhi += 0.5;
    }
    const double pad = 0.06 * (lhi - llo);
    llo -= pad;
    lhi += pad;
    const axis ya = nice_axis(ymax);
    auto X = [&](double v) { return left + (std::log10(v) - llo) / (lhi - llo) * (right - left); };
    auto Y = [&](double v) { return bottom - v / ya.top * (bottom - top); };

    w.text((left + right) / 2, oy + 20, p.title, 14, "middle", "font-weight=\"bold\"");
    // Horizontal gridlines and y ticks.
    for (int k = 0; k * ya.step <= ya.top * (1 + 1e-9); ++k) {
      const double v = k * ya.step;
      w.line(left, Y(v), right, Y(v), k == 0 ? axis_colour : grid_colour);
      w.text(left - 6, Y(v) + 4, axis_label(v, ya.decimals), 11, "end");
    }
    // Vertical gridlines at the measured sizes; labels staggered onto a
    // second line where two would overlap.
    double row_end[2] = {-1e9, -1e9};
    for (const double x : xs) {
      const double px = X(x);
      w.line(px, top, px, bottom, grid_colour);
      w.line(px, bottom, px, bottom + 4, axis_colour);
      const std::string label = chart.x_tick ? chart.x_tick(x) : fmt("%g", x);
      const double half = text_width(label, 11) / 2;
      const int row = px - half >= row_end[0] + 4 ? 0 : 1;
      w.text(px, bottom + 16 + row * 13, label, 11, "middle");
      row_end[row] = px + half;
    }
    w.line(left, top, left, bottom, axis_colour);
    w.text((left + right) / 2, bottom + 46, chart.x_label, 12, "middle");
    const double ly = (top + bottom) / 2, lx = ox + 18;
    w.text(lx, ly, chart.y_label, 12, "middle", "transform=\"rotate(-90 " + num(lx) + ' ' + num(ly) + ")\"");

    for (const auto& s : p.lines) {
      auto pts = s.points;
      std::sort(pts.begin(), pts.end());
      w.out << "<polyline fill=\"none\" stroke=\"" << s.look.colour << "\" stroke-width=\"2.2\""
            << (s.look.dashed ? " stroke-dasharray=\"6 4\"" : "") << " points=\"";
      for (const auto& [x, y] : pts) w.out << num(X(x)) << ',' << num(Y(y)) << ' ';
      w.out << "\"/>\n";
      for (const auto& [x, y] : pts) {
        const std::string tip = s.name + ", " + (chart.x_tick ? chart.x_tick(x) : fmt("%g", x)) + ": " +
                                (chart.y_value ? chart.y_value(y) : fmt("%g", y));
        w.mark(s.look.mark, X(x), Y(y), s.look.colour, tip);
      }
    }
  }
  w.text(margin, height - 10, chart.footnote, 11, "start", "", note_colour);
  return w.close();
}

std::string render(const bar_chart& chart) {
  constexpr double width = 860, label_column = 270, bar_height = 26, bar_gap = 14, value_room = 90;
  const double left = margin + label_column, right = width - margin - value_room;
  const double top = 52;
  const double bottom = top + static_cast<double>(chart.bars.size()) * (bar_height + bar_gap) + bar_gap / 2;
  const double height = bottom + 70;

  double vmax = 0;
  for (const auto& b : chart.bars) vmax = std::max(vmax, b.value);
  const axis a = nice_axis(vmax);
  auto X = [&](double v) { return left + v / a.top * (right - left); };

  writer w;
  w.open(width, height);
  w.text(width / 2, 30, chart.title, 18, "middle", "font-weight=\"bold\"");
  for (int k = 0; k * a.step <= a.top * (1 + 1e-9); ++k) {
    const double v = k * a.step;
    w.line(X(v), top, X(v), bottom, k == 0 ? axis_colour : grid_colour);
    w.line(X(v), bottom, X(v), bottom + 4, axis_colour);
    w.text(X(v), bottom + 17, axis_label(v, a.decimals), 11, "middle");
  }
  w.line(left, bottom, right, bottom, axis_colour);
  w.text((left + right) / 2, bottom + 40, chart.value_axis, 12, "middle");
  double y = top + bar_gap / 2;
  for (const auto& b : chart.bars) {
    w.text(left - 10, y + bar_height / 2 + 5, b.name, 13, "end");
    w.out << "<rect x=\"" << num(left) << "\" y=\"" << num(y) << "\" width=\"" << num(X(b.value) - left)
          << "\" height=\"" << num(bar_height) << "\" fill=\"" << b.look.colour << "\"><title>"
          << xml_escape(b.name + ": " + b.value_label) << "</title></rect>\n";
    w.text(X(b.value) + 6, y + bar_height / 2 + 5, b.value_label, 13, "start", "font-weight=\"bold\"");
    y += bar_height + bar_gap;
  }
  w.text(margin, height - 10, chart.footnote, 11, "start", "", note_colour);
  return w.close();
}

}  // namespace sealwire::bench::report::svg
