/*
 * report/escape.h — text as XML/HTML character data or attribute value:
 * the one escaping of the reports (the HTML page, html.c; the text layer,
 * <title> and <desc> of the SVG charts, charts.c).  Internal to report.
 */
#ifndef WS_REPORT_ESCAPE_H
#define WS_REPORT_ESCAPE_H

#include "util/strbuf.h"

/* Append s to b with &, <, > and " written as entities (&amp; &lt; &gt;
 * &quot;); every other byte as it is.  NULL appends nothing. */
void ws_report_xml_escape(ws_strbuf *b, const char *s);

#endif
