/*
 * elf_needed.c — a program's DT_NEEDED entries (elf_needed.h).
 *
 * Read from the section headers: the SHT_DYNAMIC section and the string
 * table its sh_link names (System V ABI, "Dynamic Section": DT_NEEDED's
 * d_val is an offset into DT_STRTAB, which for a linked program is the
 * section .dynstr that .dynamic's sh_link points at).
 */
#include "cli/elf_needed.h"

#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/strbuf.h"

/* [off, off + len) lies within a file of `size` bytes. */
static int inside(uint64_t off, uint64_t len, uint64_t size) { return off <= size && len <= size - off; }

/* len bytes at off of f into p (inside the file, checked by the caller). */
static int read_at(FILE *f, uint64_t off, void *p, size_t len) {
  return fseeko(f, (off_t)off, SEEK_SET) == 0 && fread(p, 1, len, f) == len;
}

int cli_elf_needed(const char *path, char **names, size_t *n) {
  *names = NULL;
  *n = 0;
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  struct stat stt;
  Elf64_Ehdr eh;
  int ok = fstat(fileno(f), &stt) == 0 && S_ISREG(stt.st_mode);
  const uint64_t size = ok ? (uint64_t)stt.st_size : 0;
  ok = ok && size >= sizeof eh && read_at(f, 0, &eh, sizeof eh) && !memcmp(eh.e_ident, ELFMAG, SELFMAG) &&
       eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_ident[EI_DATA] == ELFDATA2LSB &&
       eh.e_shentsize == sizeof(Elf64_Shdr) && inside(eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr), size);
  ws_strbuf out = WS_STRBUF_INIT;
  size_t count = 0;
  int found = 0;
  char *dyn = NULL, *str = NULL;
  for (uint16_t i = 0; ok && i < eh.e_shnum && !found; i++) {
    Elf64_Shdr sh, ss;
    if (!read_at(f, eh.e_shoff + (uint64_t)i * sizeof sh, &sh, sizeof sh)) break;
    if (sh.sh_type != SHT_DYNAMIC) continue;
    /* a program's dynamic section and string table are kilobytes; a
     * larger one is not a program this is for */
    if (sh.sh_link >= eh.e_shnum || !inside(sh.sh_offset, sh.sh_size, size) || sh.sh_size > (1u << 24) ||
        !read_at(f, eh.e_shoff + (uint64_t)sh.sh_link * sizeof ss, &ss, sizeof ss) ||
        !inside(ss.sh_offset, ss.sh_size, size) || ss.sh_size > (1u << 24))
      break;
    dyn = malloc(sh.sh_size + 1);
    str = malloc(ss.sh_size + 1);
    if (!dyn || !str || !read_at(f, sh.sh_offset, dyn, sh.sh_size) || !read_at(f, ss.sh_offset, str, ss.sh_size))
      break;
    found = 1;
    for (uint64_t k = 0; k + sizeof(Elf64_Dyn) <= sh.sh_size; k += sizeof(Elf64_Dyn)) {
      Elf64_Dyn dy;
      memcpy(&dy, dyn + k, sizeof dy);
      if (dy.d_tag == DT_NULL) break;
      if (dy.d_tag != DT_NEEDED || dy.d_un.d_val >= ss.sh_size) continue;
      const char *s = str + dy.d_un.d_val;
      size_t len = strnlen(s, ss.sh_size - dy.d_un.d_val);
      if (len == ss.sh_size - dy.d_un.d_val) continue; /* not terminated inside the table */
      ws_sb_putn(&out, s, len);
      ws_sb_putc(&out, '\0');
      count++;
    }
  }
  fclose(f);
  free(dyn);
  free(str);
  if (!found || out.oom) {
    ws_sb_free(&out);
    return -1;
  }
  *names = ws_sb_take(&out);
  *n = count;
  return 0;
}

const char *cli_driver_library(const char *soname) {
  /* NVIDIA's libraries that bring their own kernels and reach the GPU
   * through libcuda.so.1 (each links the CUDA runtime statically), by the
   * start of their sonames (libcublas.so.13, libcublasLt.so.13, ...). */
  static const struct {
    const char *prefix, *name;
  } libs[] = {{"libcublasLt.so", "cuBLASLt"}, {"libcublas.so", "cuBLAS"},   {"libcufft.so", "cuFFT"},
              {"libcufftw.so", "cuFFTW"},     {"libcurand.so", "cuRAND"},   {"libcusparse.so", "cuSPARSE"},
              {"libcusolver.so", "cuSOLVER"}, {"libnpp", "NPP"},            {"libnvjpeg.so", "nvJPEG"},
              {"libcudnn", "cuDNN"},          {"libnccl.so", "NCCL"},       {"libcutensor.so", "cuTENSOR"},
              {"libnvrtc.so", "NVRTC"},       {"libcuda.so", "the CUDA driver API"}};
  for (size_t i = 0; i < sizeof libs / sizeof *libs; i++)
    if (!strncmp(soname, libs[i].prefix, strlen(libs[i].prefix))) return libs[i].name;
  return NULL;
}
