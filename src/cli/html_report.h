/*
 * html_report.h — the HTML report's sections for one result set (a
 * profile on a GPU with its model results and advice), shared by
 * `predict --report` and `exec --report` (docs/charts.md, "The HTML
 * report").
 */
#ifndef WS_CLI_HTML_REPORT_H
#define WS_CLI_HTML_REPORT_H

#include "warpsight/advise.h"
#include "warpsight/report.h"

/* Adds to h the launch, the models side by side with their terms, the
 * bottleneck and advice (a), the source lines (read as `input`'s,
 * cli/source_text.h) and the charts of the models that draw one, written
 * as DIR/KERNEL-MODEL.png and .svg (dir) and inlined.  Returns EXIT_OK, or
 * EXIT_USAGE after printing why a chart could not be written. */
int cli_html_result_set(ws_html *h, const ws_profile *p, const ws_gpu *g, const ws_model_result *res,
                        size_t n, const ws_advice *a, const char *input, const char *dir);
/* Writes h to DIR/index.html and says so on stdout (unless quiet);
 * EXIT_OK or EXIT_USAGE after the error. */
int cli_html_write(const ws_html *h, const char *cmd, const char *dir, int quiet);

#endif
