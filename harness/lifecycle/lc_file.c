/* lc_file.c - files that are never seen half-written.
 *
 * Every file the lifecycle produces (regression entries, field cases,
 * nightly.json, JUnit XML) is written to a temp file in the destination
 * directory, fsync'd, and then either rename()d over the old name (replace)
 * or link()ed to the new name (create-only: link fails with EEXIST instead
 * of overwriting, which is what makes concurrent triage runs safe). A full
 * disk or a kill leaves at most a stray `.tmp-*` file, never a truncated
 * entry. An entry of two files (a field case's payload and metadata) is
 * written as a pair whose metadata lands last (mf_lc_write_pair). Also: mkdir -p, rm -rf, whole-file read, UTC timestamps and SHA-256 (for
 * content-addressed field cases; no crypto library needed). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "lifecycle.h"

int mf_lc_pathf(char *out, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(out, n, fmt, ap);
    va_end(ap);
    if (w < 0 || (size_t)w >= n) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return 0;
}

int mf_lc_mkdirs(const char *path)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0777) < 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    if (mkdir(buf, 0777) < 0 && errno != EEXIST)
        return -1;
    return 0;
}

/* Write data to a fresh temp file next to path; its name goes to tmp. */
static int write_temp(const char *path, const void *data, size_t len, char *tmp, size_t n)
{
    const char *slash = strrchr(path, '/');
    int dl = slash ? (int)(slash - path) : 1;
    snprintf(tmp, n, "%.*s/.tmp-%s-XXXXXX", dl, slash ? path : ".", slash ? slash + 1 : path);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return -1;
    fchmod(fd, 0644);
    const char *p = data;
    size_t left = len;
    while (left) {
        ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int e = w < 0 ? errno : ENOSPC;
            close(fd);
            unlink(tmp);
            errno = e;
            return -1;
        }
        p += w;
        left -= (size_t)w;
    }
    if (fsync(fd) < 0 || close(fd) < 0) {
        int e = errno;
        unlink(tmp);
        errno = e;
        return -1;
    }
    return 0;
}

int mf_lc_write_atomic(const char *path, const void *data, size_t len)
{
    char tmp[4200];
    if (write_temp(path, data, len, tmp, sizeof tmp) < 0)
        return -1;
    if (rename(tmp, path) < 0) {
        int e = errno;
        unlink(tmp);
        errno = e;
        return -1;
    }
    return 0;
}

int mf_lc_write_new(const char *path, const void *data, size_t len)
{
    if (access(path, F_OK) == 0)
        return 0;
    char tmp[4200];
    if (write_temp(path, data, len, tmp, sizeof tmp) < 0)
        return -1;
    int rc = link(tmp, path);
    int e = errno;
    unlink(tmp);
    if (rc == 0)
        return 1;
    if (e == EEXIST)
        return 0;
    errno = e;
    return -1;
}

/* fsync the directory holding path, so that a rename in it survives a crash. */
static void sync_dir(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

int mf_lc_write_pair(const char *payload_path, const void *payload, size_t payload_len,
                     const char *meta_path, const void *meta, size_t meta_len)
{
    if (access(meta_path, F_OK) == 0)
        return 0;
    char ptmp[4200], mtmp[4200];
    if (write_temp(payload_path, payload, payload_len, ptmp, sizeof ptmp) < 0)
        return -1;
    if (write_temp(meta_path, meta, meta_len, mtmp, sizeof mtmp) < 0) {
        int e = errno;
        unlink(ptmp);
        errno = e;
        return -1;
    }
    if (rename(ptmp, payload_path) < 0) {
        int e = errno;
        unlink(ptmp);
        unlink(mtmp);
        errno = e;
        return -1;
    }
    sync_dir(payload_path);
    int rc = link(mtmp, meta_path);
    int e = errno;
    unlink(mtmp);
    if (rc < 0 && e != EEXIST) {
        errno = e;
        return -1;
    }
    sync_dir(meta_path);
    return rc == 0 ? 1 : 0;
}

char *mf_lc_read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 8192, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        cap *= 2;
        char *nb = realloc(buf, cap + 1);
        if (!nb) {
            free(buf);
            buf = NULL;
        }
        buf = nb;
    }
    int err = ferror(f);
    fclose(f);
    if (!buf || err) {
        free(buf);
        errno = err ? EIO : ENOMEM;
        return NULL;
    }
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

double mf_lc_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void mf_lc_now(char *out, size_t n)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* ---- SHA-256 (FIPS 180-4) ---- */
static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void sha_block(uint32_t h[8], const uint8_t *p)
{
    uint32_t w[64], a, b, c, d, e, f, g, hh;
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = hh + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
        uint32_t t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        hh = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
}

void mf_lc_sha256_hex(const void *data, size_t len, char *out)
{
    uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    const uint8_t *p = data;
    size_t full = len / 64 * 64;
    for (size_t i = 0; i < full; i += 64)
        sha_block(h, p + i);
    uint8_t tail[128] = {0};
    size_t rest = len - full;
    if (rest)
        memcpy(tail, p + full, rest);
    tail[rest] = 0x80;
    size_t tl = rest + 9 <= 64 ? 64 : 128;
    uint64_t bits = (uint64_t)len * 8;
    for (int i = 0; i < 8; i++)
        tail[tl - 1 - i] = (uint8_t)(bits >> (8 * i));
    sha_block(h, tail);
    if (tl == 128)
        sha_block(h, tail + 64);
    for (int i = 0; i < 8; i++)
        snprintf(out + 8 * i, 9, "%08x", h[i]);
}

void mf_lc_rm_rf(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (!S_ISDIR(st.st_mode)) {
        unlink(path);
        return;
    }
    DIR *d = opendir(path);
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        char sub[4096];
        if (snprintf(sub, sizeof sub, "%s/%s", path, de->d_name) < (int)sizeof sub)
            mf_lc_rm_rf(sub);
    }
    if (d)
        closedir(d);
    rmdir(path);
}
