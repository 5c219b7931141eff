/* input.c - whole-input reads that stop at the size cap (see input.h).
 *
 * A regular file's size is known up front, so its buffer is allocated once;
 * pipes, devices and stdin grow the buffer by doubling, but never past
 * cap + 1 bytes. One extra read past the cap tells "exactly cap" from "more". */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "malform/input.h"
#include "malform/malform.h"

static size_t initial_size(int fd, size_t limit)
{
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
        return (size_t)st.st_size < limit ? (size_t)st.st_size + 1 : limit;
    return limit < 65536 ? limit : 65536;
}

static mf_input_status read_fd(int fd, size_t cap, char **out, size_t *len)
{
    size_t limit = cap + 1;        /* bytes we may hold */
    size_t size = initial_size(fd, limit), n = 0;
    char *buf = malloc(size + 1);
    if (!buf)
        return MF_INPUT_NO_MEMORY;
    for (;;) {
        if (n == size) {
            if (size == limit)
                break;
            size_t grow = size > limit / 2 ? limit : size * 2;
            char *nb = realloc(buf, grow + 1);
            if (!nb) {
                free(buf);
                return MF_INPUT_NO_MEMORY;
            }
            buf = nb;
            size = grow;
        }
        ssize_t got = read(fd, buf + n, size - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int e = errno;
            free(buf);
            errno = e;
            return MF_INPUT_READ_ERROR;
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return n > cap ? MF_INPUT_TOO_LARGE : MF_INPUT_OK;
}

mf_input_status mf_input_read(const char *path, size_t cap, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    if (cap == 0)
        cap = MF_DEFAULT_MAX_INPUT;
    bool std = strcmp(path, "-") == 0;
    int fd = std ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return MF_INPUT_OPEN_ERROR;
    mf_input_status st = read_fd(fd, cap, out, len);
    if (!std) {
        int e = errno;
        close(fd);
        errno = e;
    }
    return st;
}

const char *mf_input_describe(mf_input_status st, const char *path, size_t cap)
{
    static _Thread_local char msg[512];
    const char *name = strcmp(path, "-") == 0 ? "(stdin)" : path;
    switch (st) {
    case MF_INPUT_OK:
        snprintf(msg, sizeof msg, "%.400s: read", name);
        break;
    case MF_INPUT_TOO_LARGE:
        snprintf(msg, sizeof msg, "%.400s: input is larger than the size cap of %zu bytes", name,
                 cap ? cap : (size_t)MF_DEFAULT_MAX_INPUT);
        break;
    case MF_INPUT_OPEN_ERROR:
        snprintf(msg, sizeof msg, "cannot open %.400s: %s", name, strerror(errno));
        break;
    case MF_INPUT_READ_ERROR:
        snprintf(msg, sizeof msg, "cannot read %.400s: %s", name, strerror(errno));
        break;
    default:
        snprintf(msg, sizeof msg, "%.400s: out of memory reading the input", name);
        break;
    }
    return msg;
}
