// SPDX-License-Identifier: Apache-2.0
// A small SVG chart writer for the benchmark report: line charts with a
// logarithmic x axis in one or more panels sharing a legend, and horizontal
// bar charts. Light background, gridlines, one colour and marker per series.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace sealwire::bench::report::svg {

enum class marker { circle, square, triangle, diamond, triangle_down, cross };

struct style {
  std::string colour = "#555555";
  marker mark = marker::circle;
  bool dashed = false;
};

struct series {
  std::string name;  // the legend entry; series with the same name share it
  style look;
  std::vector<std::pair<double, double>> points;  // (x > 0, y >= 0)
};

struct panel {
  std::string title;
  std::vector<series> lines;
};

struct line_chart {
  std::string title;
  std::string x_label;   // under each panel
  std::string y_label;   // beside each panel (linear, from 0)
  std::string footnote;  // small grey text at the bottom (the run)
  std::vector<panel> panels;
  int columns = 2;
  int panel_width = 430;
  int panel_height = 300;
  std::function<std::string(double)> x_tick;  // tick label of a data x value
  std::function<std::string(double)> y_value;  // a value in a marker's tooltip
};

struct bar {
  std::string name;
  style look;
  double value = 0;
  std::string value_label;  // written at the end of the bar
};

struct bar_chart {
  std::string title;
  std::string value_axis;  // label of the value axis
  std::string footnote;
  std::vector<bar> bars;
};

std::string render(const line_chart& chart);
std::string render(const bar_chart& chart);

}  // namespace sealwire::bench::report::svg
