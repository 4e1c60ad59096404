/*
 * escape.c — the reports' one XML/HTML escaping (report/escape.h).
 */
#include "report/escape.h"

void ws_report_xml_escape(ws_strbuf *b, const char *s) {
  for (; s && *s; s++) switch (*s) {
    case '&': ws_sb_puts(b, "&amp;"); break;
    case '<': ws_sb_puts(b, "&lt;"); break;
    case '>': ws_sb_puts(b, "&gt;"); break;
    case '"': ws_sb_puts(b, "&quot;"); break;
    default: ws_sb_putc(b, *s);
    }
}
