/*
 * outfile.c — every output file is written here: into a new temporary file
 * in the destination's folder (created with O_EXCL, so never through a
 * symlink or into a file already there), then renamed over the destination.
 * A reader sees the old file or the whole new one, never a half-written
 * one; when writing fails (disk full, permission) the old file stays and
 * the error gives the OS's reason.  A symlink at the destination is
 * replaced, never followed, so nothing outside the folder is written.
 * Only a regular file (or a symlink to one, or nothing) is ever replaced:
 * a device node (/dev/null), a FIFO, a socket or a folder at the
 * destination is an error and stays as it is.
 *
 * ws_outdir commits the outputs of one folder together: they are written
 * into a hidden staging folder inside it and moved into place all or none,
 * the old files kept (hard links, else renamed aside) until every move
 * succeeded and put back when one fails.
 */
#include "warpsight/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/file.h"
#include "util/strbuf.h"
#include "util/vec.h"

/* May `path` be replaced by an output?  Yes when nothing is there, a
 * regular file, or a symlink that does not lead to something else (the
 * link itself is replaced).  Else an error that says what it is. */
static int replaceable(const char *path, ws_diag *d) {
  struct stat sb, tb;
  if (lstat(path, &sb) != 0 || S_ISREG(sb.st_mode)) return WS_OK;
  if (S_ISLNK(sb.st_mode)) {
    if (stat(path, &tb) != 0 || S_ISREG(tb.st_mode)) return WS_OK;
    ws_diag_add(d, WS_SEV_ERROR, path, 0, 0,
                "cannot write: it is a symbolic link to %s; an output must be a regular file "
                "(left as it is)", ws_file_kind(tb.st_mode));
    return WS_EIO;
  }
  ws_diag_add(d, WS_SEV_ERROR, path, 0, 0,
              "cannot write: it is %s; an output must be a regular file (left as it is)",
              ws_file_kind(sb.st_mode));
  return WS_EIO;
}

int ws_outfile_open(ws_outfile *o, const char *path, ws_diag *d) {
  memset(o, 0, sizeof *o);
  if (replaceable(path, d)) return WS_EIO;
  size_t n = strlen(path);
  const char *slash = strrchr(path, '/');
  size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
  o->path = malloc(n + 1);
  o->tmp = malloc(n + 64);
  if (!o->path || !o->tmp) {
    ws_outfile_discard(o);
    ws_diag_add(d, WS_SEV_ERROR, path, 0, 0, "cannot write: out of memory");
    return WS_ENOMEM;
  }
  memcpy(o->path, path, n + 1);
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  unsigned long long seed = (unsigned long long)ts.tv_nsec ^ ((unsigned long long)getpid() << 32) ^
                            (unsigned long long)(uintptr_t)o;
  int fd = -1, err = 0;
  for (int i = 0; i < 100 && fd < 0; i++) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull; /* Knuth's MMIX LCG */
    /* ".NAME.XXXXXXXX.tmp" beside NAME: hidden, and in the same file system
     * so that rename() is atomic */
    snprintf(o->tmp, n + 64, "%.*s.%s.%08llx.tmp", (int)dlen, path, path + dlen,
             (seed >> 33) & 0xffffffffull);
    fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
    err = errno;
    if (fd < 0 && err != EEXIST) break;
  }
  if (fd < 0) {
    ws_diag_add(d, WS_SEV_ERROR, path, 0, 0, "cannot write: %s", strerror(err));
    free(o->tmp);
    o->tmp = NULL;
    ws_outfile_discard(o);
    return WS_EIO;
  }
  o->f = fdopen(fd, "wb");
  if (!o->f) {
    err = errno;
    close(fd);
    unlink(o->tmp);
    ws_diag_add(d, WS_SEV_ERROR, path, 0, 0, "cannot write: %s", strerror(err));
    ws_outfile_discard(o);
    return WS_EIO;
  }
  return WS_OK;
}

int ws_outfile_commit(ws_outfile *o, ws_diag *d) {
  if (!o->f) return WS_EIO;
  int err = 0;
  if (fflush(o->f) != 0 || ferror(o->f)) err = errno ? errno : EIO;
  if (!err && fsync(fileno(o->f)) != 0 && errno != EINVAL) err = errno;
  if (fclose(o->f) != 0 && !err) err = errno ? errno : EIO;
  o->f = NULL;
  /* what is there now, not only when it was opened */
  if (!err && replaceable(o->path, d)) {
    unlink(o->tmp);
    free(o->tmp);
    o->tmp = NULL;
    ws_outfile_discard(o);
    return WS_EIO;
  }
  if (!err && rename(o->tmp, o->path) != 0) err = errno;
  if (err) {
    unlink(o->tmp);
    ws_diag_add(d, WS_SEV_ERROR, o->path, 0, 0, "cannot write: %s (the previous file, if any, is unchanged)",
                strerror(err));
  }
  free(o->tmp);
  o->tmp = NULL;
  ws_outfile_discard(o);
  return err ? WS_EIO : WS_OK;
}

void ws_outfile_discard(ws_outfile *o) {
  if (o->f) {
    fclose(o->f);
    o->f = NULL;
  }
  if (o->tmp) unlink(o->tmp);
  free(o->tmp);
  free(o->path);
  o->tmp = o->path = NULL;
}

int ws_write_file(const char *path, const void *data, size_t len, ws_diag *d) {
  ws_outfile o;
  int st = ws_outfile_open(&o, path, d);
  if (st) return st;
  /* a short write sets the stream's error: the commit reports it */
  if (len) (void)fwrite(data, 1, len, o.f);
  return ws_outfile_commit(&o, d);
}

/* ---- a folder's outputs, all or none ------------------------------------ */

int ws_outdir_begin(ws_outdir *o, const char *dir, ws_diag *d) {
  memset(o, 0, sizeof *o);
  ws_strbuf b = WS_STRBUF_INIT;
  ws_sb_printf(&b, "%s/.warpsight-XXXXXX", dir);
  o->dir = ws_strdup(dir);
  o->stage = ws_sb_take(&b);
  if (!o->dir || !o->stage) {
    ws_outdir_discard(o);
    ws_diag_add(d, WS_SEV_ERROR, dir, 0, 0, "cannot write: out of memory");
    return WS_ENOMEM;
  }
  if (!mkdtemp(o->stage)) {
    ws_diag_add(d, WS_SEV_ERROR, dir, 0, 0, "cannot write into the folder: %s", strerror(errno));
    free(o->stage);
    o->stage = NULL;
    ws_outdir_discard(o);
    return WS_EIO;
  }
  return WS_OK;
}

const char *ws_outdir_path(const ws_outdir *o) { return o->stage; }

/* One entry of the staged tree: its path below the folder. */
typedef struct staged {
  char *rel;   /* "rows.csv", "gtx680/k-roofline.png" (owned) */
  int is_dir;  /* a folder (made in the destination before its files) */
  int backup;  /* 1 hard link, 2 renamed aside: the old file is stage/.warpsight-old-N */
  int moved;   /* 1 once moved into place (or, for a folder, made there) */
} staged;

typedef struct tree {
  staged *v;        /* entries, folders before what they hold (owned) */
  size_t n, cap;    /* used, allocated */
} tree;

static void tree_free(tree *t) {
  for (size_t i = 0; i < t->n; i++) free(t->v[i].rel);
  free(t->v);
}

/* Names in the staging folder that are not outputs: . and .., the old
 * files kept there (.warpsight-old-N) and a writer's temporary file
 * (.NAME.XXXXXXXX.tmp, left only when it failed). */
static int own_name(const char *n) {
  size_t len = strlen(n);
  return !strcmp(n, ".") || !strcmp(n, "..") || !strncmp(n, ".warpsight-old-", 15) ||
         (n[0] == '.' && len > 14 && !strcmp(n + len - 4, ".tmp") && n[len - 13] == '.');
}

/* The entries under stage/rel, depth first (at most 16 folders deep: the
 * commands write two). */
static int walk(tree *t, const char *stage, const char *rel, int depth) {
  ws_strbuf p = WS_STRBUF_INIT;
  ws_sb_printf(&p, "%s%s%s", stage, *rel ? "/" : "", rel);
  DIR *dp = p.oom ? NULL : opendir(ws_sb_str(&p));
  ws_sb_free(&p);
  if (!dp) return WS_EIO;
  int st = WS_OK;
  struct dirent *e;
  while (!st && (e = readdir(dp))) {
    if (own_name(e->d_name)) continue;
    ws_strbuf r = WS_STRBUF_INIT;
    ws_sb_printf(&r, "%s%s%s", rel, *rel ? "/" : "", e->d_name);
    ws_strbuf full = WS_STRBUF_INIT;
    ws_sb_printf(&full, "%s/%s", stage, ws_sb_str(&r));
    struct stat sb;
    int dir = !full.oom && lstat(ws_sb_str(&full), &sb) == 0 && S_ISDIR(sb.st_mode);
    ws_sb_free(&full);
    char *name = ws_sb_take(&r);
    staged s = {name, dir, 0, 0};
    if (!name || WS_VEC_PUSH(t->v, t->n, t->cap, s)) {
      free(name);
      st = WS_ENOMEM;
    } else if (dir) {
      st = depth < 16 ? walk(t, stage, name, depth + 1) : WS_EIO;
    }
  }
  closedir(dp);
  return st;
}

/* "dir/rel" or "stage/.old-i" into a new string (NULL on ENOMEM). */
static char *join(const char *a, const char *b) {
  ws_strbuf s = WS_STRBUF_INIT;
  ws_sb_printf(&s, "%s/%s", a, b);
  return ws_sb_take(&s);
}

static char *old_name(const ws_outdir *o, size_t i) {
  ws_strbuf s = WS_STRBUF_INIT;
  ws_sb_printf(&s, "%s/.warpsight-old-%zu", o->stage, i);
  return ws_sb_take(&s);
}

/* Puts back what entries [0, n) replaced, newest first. */
static void roll_back(const ws_outdir *o, tree *t, size_t n) {
  for (size_t k = n; k-- > 0;) {
    staged *s = &t->v[k];
    char *dst = join(o->dir, s->rel), *old = old_name(o, k);
    if (dst && old) {
      if (s->is_dir && s->moved) rmdir(dst);
      else if (s->moved && s->backup) rename(old, dst);
      else if (s->moved) unlink(dst);
      else if (s->backup == 2) rename(old, dst);
    }
    free(dst);
    free(old);
  }
}

/* Moves entry i into place, keeping the old file first. */
static int move_one(const ws_outdir *o, staged *s, size_t i, ws_diag *d) {
  char *src = join(o->stage, s->rel), *dst = join(o->dir, s->rel), *old = old_name(o, i);
  int st = WS_OK, err = 0;
  struct stat sb;
  if (!src || !dst || !old) {
    st = WS_ENOMEM;
  } else if (s->is_dir) {
    if (mkdir(dst, 0777) == 0) s->moved = 1;
    else if (errno != EEXIST || stat(dst, &sb) != 0 || !S_ISDIR(sb.st_mode)) err = errno ? errno : EEXIST;
  } else {
    if (lstat(dst, &sb) == 0) { /* the old file: kept until every move succeeded */
      if (linkat(AT_FDCWD, dst, AT_FDCWD, old, 0) == 0) s->backup = 1;
      else if (rename(dst, old) == 0) s->backup = 2;
      else err = errno;
    }
    if (!err && rename(src, dst) == 0) s->moved = 1;
    else if (!err) err = errno;
  }
  if (err) {
    ws_diag_add(d, WS_SEV_ERROR, dst ? dst : o->dir, 0, 0, "cannot write: %s", strerror(err));
    st = WS_EIO;
  }
  free(src);
  free(dst);
  free(old);
  return st;
}

/* Removes the staging folder and what is left in it (old files, files not
 * moved), deepest first. */
static void remove_stage(ws_outdir *o, tree *t) {
  for (size_t k = t->n; k-- > 0;) {
    char *p = join(o->stage, t->v[k].rel), *old = old_name(o, k);
    if (p) t->v[k].is_dir ? (void)rmdir(p) : (void)unlink(p);
    if (old) unlink(old);
    free(p);
    free(old);
  }
  /* temporary files a failed writer left, then the folder */
  DIR *dp = opendir(o->stage);
  struct dirent *e;
  while (dp && (e = readdir(dp))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char *p = join(o->stage, e->d_name);
    if (p) unlink(p);
    free(p);
  }
  if (dp) closedir(dp);
  rmdir(o->stage);
}

int ws_outdir_commit(ws_outdir *o, ws_diag *d) {
  if (!o->stage) return WS_EIO;
  tree t = {NULL, 0, 0};
  int st = walk(&t, o->stage, "", 0);
  if (st == WS_EIO) ws_diag_add(d, WS_SEV_ERROR, o->stage, 0, 0, "cannot read the outputs back: %s",
                                strerror(errno));
  /* every destination first: one that may not be replaced stops them all */
  for (size_t i = 0; !st && i < t.n; i++) {
    char *dst = join(o->dir, t.v[i].rel);
    struct stat sb;
    if (!dst) st = WS_ENOMEM;
    else if (!t.v[i].is_dir) st = replaceable(dst, d);
    else if (lstat(dst, &sb) == 0 && !S_ISDIR(sb.st_mode)) {
      ws_diag_add(d, WS_SEV_ERROR, dst, 0, 0, "cannot write into it: it is %s, not a folder",
                  ws_file_kind(sb.st_mode));
      st = WS_EIO;
    }
    free(dst);
  }
  size_t i = 0;
  for (; !st && i < t.n; i++) st = move_one(o, &t.v[i], i, d);
  if (st) {
    roll_back(o, &t, i);
    if (st != WS_ENOMEM)
      ws_diag_add(d, WS_SEV_NOTE, o->dir, 0, 0,
                  "none of the %zu outputs was written: they are committed all or none", t.n);
  }
  remove_stage(o, &t);
  tree_free(&t);
  free(o->stage);
  o->stage = NULL;
  ws_outdir_discard(o);
  return st;
}

/* s with its first `stage` replaced by `dir` (malloc'd), or NULL when it
 * holds none or on ENOMEM. */
static char *unstage(const char *s, const char *stage, const char *dir) {
  const char *at = s ? strstr(s, stage) : NULL;
  if (!at) return NULL;
  ws_strbuf b = WS_STRBUF_INIT;
  ws_sb_printf(&b, "%.*s%s%s", (int)(at - s), s, dir, at + strlen(stage));
  return ws_sb_take(&b);
}

void ws_outdir_names(const ws_outdir *o, ws_diag *d, size_t from) {
  if (!d || !o->stage) return;
  for (size_t k = from; k < d->count; k++) {
    char **fields[2] = {&d->items[k].file, &d->items[k].message};
    for (int f = 0; f < 2; f++) {
      char *t = unstage(*fields[f], o->stage, o->dir);
      if (t) {
        free(*fields[f]);
        *fields[f] = t;
      }
    }
  }
}

void ws_outdir_discard(ws_outdir *o) {
  if (o->stage) {
    tree t = {NULL, 0, 0};
    walk(&t, o->stage, "", 0);
    remove_stage(o, &t);
    tree_free(&t);
  }
  free(o->stage);
  free(o->dir);
  o->stage = o->dir = NULL;
}
