/*
 * lsan.c — LeakSanitizer suppressions for the warpsight command in
 * sanitizer builds (the hook is ignored otherwise).
 *
 * fontconfig, which cairo uses to find fonts for the charts, keeps its
 * configuration for the life of the process; only FcFini() would free it,
 * and that is not ours to call.  Our own allocations stay checked.
 */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:libfontconfig.so\n"; }
