/*
 * util/demangle.h — C++ names for kernels: the reports show
 * `reduce<float, 256u>` where the PTX says `_Z6reduceIfLj256EEvPKT_PS1_i`.
 * Demangling is libiberty's (the GNU demangler, Debian libiberty-dev).
 */
#ifndef WS_UTIL_DEMANGLE_H
#define WS_UTIL_DEMANGLE_H

/* The demangled name without parameter list ("ns::k<float, 5>"), or a copy
 * of `name` when it is not a mangled C++ name.  malloc'd (the caller frees
 * it); NULL only when memory runs out. */
char *ws_demangle(const char *name);
/* Does `query` name the kernel `mangled`: equal to the mangled name, to the
 * demangled name, or to the demangled name with its parameter list
 * ("k<float, 5>(float*, int)")?  Spaces are ignored in the comparison. */
int ws_demangle_match(const char *mangled, const char *query);

#endif
