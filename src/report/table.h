/*
 * report/table.h — the width of a text table's column headed by a name the
 * user gave or can give back (a GPU such as a100-pcie-40gb, a model such as
 * kothapalli-max): 12 characters, or the whole name when it is longer, so
 * that no header is cut to a name that is no name (the --gpu tables of
 * predict, model and exec, the counterfactuals, sweep's gpu column).
 */
#ifndef WS_REPORT_TABLE_H
#define WS_REPORT_TABLE_H

#include <string.h>

static inline int ws_report_col_width(const char *name) {
  size_t n = name ? strlen(name) : 0;
  return n > 12 ? (int)(n > 200 ? 200 : n) : 12;
}

#endif
