#pragma once
// Qt Charts paint with a theme of their own (white plot, dark labels) whatever the
// desktop does. followPalette() makes a chart view take its colours from the widget
// palette instead — background, labels, axes, grid, legend — now and on every palette
// change (a desktop switching between light and dark sends one). Series colours stay:
// they are chosen to read on both.

class QChartView;

namespace ec::widgets {

void followPalette(QChartView* view);

}  // namespace ec::widgets
