/* html_report.c — one result set of the HTML report (cli/html_report.h). */
#include "cli/html_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/source_text.h"

int cli_html_result_set(ws_html *h, const ws_profile *p, const ws_gpu *g, const ws_model_result *res,
                        size_t n, const ws_advice *a, const char *input, const char *dir) {
  ws_floors fl;
  ws_model_floors_compute(&fl, p, g);
  const ws_model_result *primary = NULL;
  for (size_t i = 0; i < n && !primary; i++)
    if (!strcmp(res[i].model, "warpsight")) primary = &res[i];
  ws_report_html_launch(h, p, g);
  ws_report_html_models(h, res, n, &fl);
  ws_report_html_advice(h, a);
  char **src = cli_source_text(p, input);
  ws_report_html_lines(h, p, primary ? primary : (n ? &res[0] : NULL), (const char *const *)src);
  cli_source_text_free(src, p->lines ? p->lines->nrows : 0);
  ws_report_html_open(h, "charts", "Charts");
  int rc = EXIT_OK, drew = 0;
  if (!ws_report_chart_available()) {
    ws_report_html_note(h, "This warpsight was built without cairo: no charts.");
  } else if (cli_make_dir("report", dir)) {
    rc = EXIT_USAGE;
  } else {
    char safe[128], base[4096], svg[4200];
    cli_file_safe(safe, sizeof safe, p->kernel);
    for (size_t i = 0; i < n; i++) {
      snprintf(base, sizeof base, "%s/%s-%s", dir, safe, res[i].model);
      ws_diag d = WS_DIAG_INIT;
      int st = ws_report_chart_for_result(base, &res[i], &d);
      if (st == WS_OK) {
        snprintf(svg, sizeof svg, "%s.svg", base);
        char cap[256];
        snprintf(cap, sizeof cap, "%s: the model's chart (docs/charts.md)", res[i].model);
        st = ws_report_html_svg(h, NULL, cap, svg, &d);
        drew += st == WS_OK;
      }
      if (st != WS_OK && (st != WS_EUNSUP || d.count)) {
        cli_print_diag(&d);
        rc = EXIT_USAGE;
      }
      ws_diag_free(&d);
    }
    if (!drew) ws_report_html_note(h, "No model that ran draws a chart (gpuperf, transit, roofline do).");
  }
  ws_report_html_close(h);
  return rc;
}

int cli_html_write(const ws_html *h, const char *cmd, const char *dir, int quiet) {
  if (cli_make_dir(cmd, dir)) return EXIT_USAGE;
  char path[4200];
  snprintf(path, sizeof path, "%s/index.html", dir);
  ws_diag d = WS_DIAG_INIT;
  int st = ws_report_html_write(h, path, &d);
  cli_print_diag(&d);
  ws_diag_free(&d);
  ws_report_chart_shutdown(); /* cairo's font caches, for leak checkers */
  if (st) return cli_exit_for(st);
  if (!quiet) printf("\nwrote %s\n", path);
  return EXIT_OK;
}
