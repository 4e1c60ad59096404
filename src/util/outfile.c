/*
 * outfile.c — every output file is written here: into a new temporary file
 * in the destination's folder (created with O_EXCL, so never through a
 * symlink or into a file already there), then renamed over the destination.
 * A reader sees the old file or the whole new one, never a half-written
 * one; when writing fails (disk full, permission) the old file stays and
 * the error gives the OS's reason.  A symlink at the destination is
 * replaced, never followed, so nothing outside the folder is written.
 */
#include "warpsight/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int ws_outfile_open(ws_outfile *o, const char *path, ws_diag *d) {
  memset(o, 0, sizeof *o);
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
