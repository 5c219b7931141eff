/* buf.c - growable byte buffers, string copies and line splitting. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static int buf_reserve(mf_buf *b, size_t extra)
{
    if (b->len + extra + 1 <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1) {
        if (cap > ((size_t)-1) / 2)
            return mf_oom();
        cap *= 2;
    }
    char *s = realloc(b->s, cap);
    if (!s)
        return mf_oom();
    b->s = s;
    b->cap = cap;
    return 0;
}

int mf_buf_reserve(mf_buf *b, size_t n) { return buf_reserve(b, n); }

int mf_buf_put(mf_buf *b, const char *s, size_t n)
{
    if (buf_reserve(b, n))
        return -1;
    if (n)
        memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
    return 0;
}

int mf_buf_puts(mf_buf *b, const char *s) { return mf_buf_put(b, s, strlen(s)); }
int mf_buf_putc(mf_buf *b, char c) { return mf_buf_put(b, &c, 1); }

int mf_buf_printf(mf_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || buf_reserve(b, (size_t)n))
        return -1;
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
    return 0;
}

void mf_buf_reset(mf_buf *b)
{
    b->len = 0;
    if (b->s)
        b->s[0] = '\0';
}

void mf_buf_free(mf_buf *b)
{
    free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
}

char *mf_buf_detach(mf_buf *b)
{
    char *s = b->s ? b->s : mf_strndup("", 0);
    b->s = NULL;
    b->len = b->cap = 0;
    return s;
}

const char *mf_buf_cstr(const mf_buf *b) { return b->s ? b->s : ""; }

char *mf_strndup(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (!d) {
        mf_oom();
        return NULL;
    }
    if (n)
        memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *mf_strdup0(const char *s) { return s ? mf_strndup(s, strlen(s)) : NULL; }

int mf_lines_split(const char *text, size_t len, mf_lines *out)
{
    size_t n = 1;
    for (size_t i = 0; i < len; i++)
        n += text[i] == '\n';
    out->items = malloc(n * sizeof *out->items);
    out->count = 0;
    if (!out->items)
        return mf_oom();
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i == len || text[i] == '\n') {
            if (i == len && start == len && out->count > 0)
                break; /* text ended with '\n': no empty last line */
            out->items[out->count].s = text + start;
            out->items[out->count].len = i - start;
            out->count++;
            start = i + 1;
        }
    }
    return 0;
}

void mf_lines_free(mf_lines *l)
{
    free(l->items);
    l->items = NULL;
    l->count = 0;
}

size_t mf_line_indent(mf_line l)
{
    size_t i = 0;
    while (i < l.len && l.s[i] == ' ')
        i++;
    return i;
}

bool mf_line_blank(mf_line l)
{
    for (size_t i = 0; i < l.len; i++)
        if (l.s[i] != ' ' && l.s[i] != '\t' && l.s[i] != '\r')
            return false;
    return true;
}
