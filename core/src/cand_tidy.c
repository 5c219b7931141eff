/* cand_tidy.c - trimming the tail of a candidate (seed 000, Universal Repairs:
 * "Trailing terminal noise" and "Orphan closing code fence").
 *
 * Output piped through a terminal picks up escape sequences after the artifact:
 * ANSI CSI sequences (ESC [ params final), bracketed-paste markers ([200~,
 * [201~, with or without the ESC) and bare control characters (0-8, 11, 12,
 * 14-31, 127). One forward scan classifies every byte as noise, whitespace or
 * content; whatever noise follows the last content byte is cut. That covers
 * both seed cases: noise-only trailing lines (YAML) and an inline noise suffix
 * (YAML line or JSON root value); noise between content bytes is left alone.
 *
 * A candidate whose last non-blank line is a bare ``` while no earlier line
 * opens a fence ends in an orphan closing fence (the model closed a fence it
 * never opened): that line is cut. Both scans are linear and idempotent. */
#include <ctype.h>
#include <string.h>
#include "cand_internal.h"

static bool is_noise_ctl(unsigned char c)
{
    return c <= 8 || c == 11 || c == 12 || (c >= 14 && c <= 31) || c == 127;
}

size_t mf_noise_token_len(const char *s, size_t n)
{
    unsigned char c = (unsigned char)s[0];
    if (c == 27 && n > 1 && s[1] == '[') {
        /* as a VT500 terminal parses CSI: parameter and intermediate bytes
         * (0x20-0x3f) in any order, a misordered run ignored whole up to its
         * final byte (`\x1b[+32m` shows nothing, run 48 9e2ef534) */
        size_t i = 2;
        while (i < n && (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] <= 0x3f)
            i++;
        if (i < n && (unsigned char)s[i] >= 0x40 && (unsigned char)s[i] <= 0x7e)
            i++;
        return i; /* a truncated sequence is noise up to where it stops */
    }
    if (is_noise_ctl(c))
        return 1;
    if (c == '[' && n >= 5 && memcmp(s, "[20", 3) == 0 && (s[3] == '0' || s[3] == '1') && s[4] == '~')
        return 5;
    return 0;
}

int mf_cand_line_at(const char *s, size_t off)
{
    int line = 1;
    for (size_t i = 0; i < off; i++)
        line += s[i] == '\n';
    return line;
}

/* True when no noise token can follow the last content byte (most texts):
 * without an ESC byte every token is one control character or a paste
 * marker ending in '~', so a last non-blank byte that is neither is content. */
static bool noise_free(const char *s, size_t len)
{
    if (memchr(s, 27, len))
        return false;
    size_t e = len;
    while (e > 0 && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\n' || s[e - 1] == '\r'))
        e--;
    return e == 0 || (!is_noise_ctl((unsigned char)s[e - 1]) && s[e - 1] != '~');
}

size_t mf_cand_noise_cut(const char *s, size_t len, int *line, bool *keep_nl)
{
    if (noise_free(s, len)) {
        *line = 0;
        *keep_nl = false;
        return len;
    }
    size_t content_end = 0, noise_start = (size_t)-1, i = 0;
    while (i < len) {
        unsigned char c = (unsigned char)s[i];
        if (c > ' ' && c != '[' && c != 127) { /* printable, starts no noise token: content */
            content_end = ++i;
            noise_start = (size_t)-1;
            continue;
        }
        if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
            i++;
            continue;
        }
        size_t n = mf_noise_token_len(s + i, len - i);
        if (n) {
            if (noise_start == (size_t)-1)
                noise_start = i;
            i += n;
        } else if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
            i++;
        } else {
            content_end = ++i;
            noise_start = (size_t)-1;
        }
    }
    *line = 0;
    *keep_nl = false;
    if (noise_start == (size_t)-1)
        return len;
    *line = mf_cand_line_at(s, noise_start);
    /* noise on lines of its own: the cut starts at its line, so whitespace lines
     * above it stay (a block scalar's `   ` line is text: "x\n " under `|-`, and
     * `|+` keeps its blank lines) */
    size_t ls = noise_start;
    while (ls > content_end && s[ls - 1] != '\n')
        ls--;
    if (ls > content_end) {
        *keep_nl = false;
        return ls;
    }
    *keep_nl = content_end > 0 && memchr(s + content_end, '\n', len - content_end) != NULL;
    return content_end;
}

bool mf_cand_bracket_outside_noise(const char *s, size_t n)
{
    if (!memchr(s, '[', n))
        return false;
    for (size_t i = 0; i < n;) {
        size_t k = mf_noise_token_len(s + i, n - i);
        if (k)
            i += k;
        else if (s[i++] == '[')
            return true;
    }
    return false;
}

/* A bare closing tag or fence at column 0: [s, s+n) without trailing blanks. */
static bool closing_mark(const char *s, size_t n)
{
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        n--;
    if (n >= 3 && (s[0] == '`' || s[0] == '~')) {
        size_t i = 0;
        while (i < n && s[i] == s[0])
            i++;
        return i == n;
    }
    if (n < 4 || s[0] != '<' || s[1] != '/' || s[n - 1] != '>' || !isalpha((unsigned char)s[2]))
        return false;
    for (size_t i = 2; i + 1 < n; i++)
        if (!isalnum((unsigned char)s[i]) && !strchr("_.:-", s[i]))
            return false;
    return true;
}

/* End of the last content byte of [s, s+n) (0 when none): what follows it
 * is blanks and terminal noise tokens only; *noise: one such token follows. */
static size_t content_end_of(const char *s, size_t n, bool *noise)
{
    size_t end = 0;
    *noise = false;
    for (size_t i = 0; i < n;) {
        size_t k = mf_noise_token_len(s + i, n - i);
        if (k) {
            *noise = true;
            i += k;
        } else if (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
            i++;
        } else {
            end = ++i;
            *noise = false;
        }
    }
    return end;
}

bool mf_cand_noise_only(const char *s, size_t n)
{
    bool noise;
    return content_end_of(s, n, &noise) == 0;
}

bool mf_cand_closer_line(const char *s, size_t n)
{
    if (closing_mark(s, n))
        return true;
    bool noise;
    size_t end = content_end_of(s, n, &noise);
    return noise && (end == 0 || closing_mark(s, end)); /* noise alone, or after a mark ("```\x1b[0m") */
}

/* Start of a front-matter closer that ends the text: a bare `---` line at
 * column 0 (a comment may follow it) after content, past blank and comment
 * lines at the end; len when there is none. yaml.front-matter-closer drops it
 * later, so the noise or orphan fence before it is trailing all the same. */
static size_t doc_closer_start(const char *s, size_t len)
{
    size_t e = len;
    while (e > 0) {
        size_t a = e;
        while (a > 0 && s[a - 1] != '\n')
            a--;
        size_t i = a;
        while (i < e && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
            i++;
        if (i + 3 <= e && i == a && memcmp(s + i, "---", 3) == 0) {
            size_t k = i + 3;
            while (k < e && (s[k] == ' ' || s[k] == '\t' || s[k] == '\r'))
                k++;
            return (k == e || (k > i + 3 && s[k] == '#')) && a > 0 ? a : len;
        }
        if (i < e && s[i] != '#' && s[i] != '\n')
            return len;
        e = a > 0 ? a - 1 : 0;
        if (a == 0)
            break;
    }
    return len;
}

/* Is [s, s+n) a bare `---` line at column 0 (a comment may follow it)? */
static bool bare_dashes(const char *s, size_t n)
{
    if (n < 3 || memcmp(s, "---", 3) != 0)
        return false;
    size_t k = 3;
    while (k < n && (s[k] == ' ' || s[k] == '\t' || s[k] == '\r'))
        k++;
    return k == n || (k > 3 && s[k] == '#');
}

size_t mf_cand_closer_tail(const char *s, size_t len, bool fences)
{
    size_t tail = doc_closer_start(s, len), e = tail;
    while (e > 0) {
        size_t j = e;                   /* a closing mark ends in '`', '~' or '>' (a `---` in '-'): else no need to find the line start */
        while (j > 0 && (s[j - 1] == ' ' || s[j - 1] == '\t' || s[j - 1] == '\r'))
            j--;
        bool mark_end = !(j > 0 && s[j - 1] != '\n' && s[j - 1] != '`' && s[j - 1] != '~' && s[j - 1] != '>' &&
                          s[j - 1] != '-');
        size_t a = e;
        while (!mark_end && a > 0 && s[a - 1] != '\n' && e - a < 4096)
            a--;                        /* only a commented closer (`--- # end of front matter`) may end otherwise */
        if (!mark_end && !(a > 0 && s[a - 1] == '\n' && bare_dashes(s + a, e - a)))
            break;
        a = e;
        while (a > 0 && s[a - 1] != '\n')
            a--;
        bool blank = true;
        for (size_t i = a; i < e && blank; i++)
            blank = s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n';
        /* a bare `---` closer among the closing marks ("```" + "---" + "</response>"):
         * yaml.front-matter-closer drops it once the tag line is gone */
        bool closer = !blank && a > 0 && bare_dashes(s + a, e - a);
        if (!blank && !closer && (!closing_mark(s + a, e - a) || (!fences && (s[a] == '`' || s[a] == '~'))))
            break;
        if (!blank)
            tail = a;
        e = a > 0 ? a - 1 : 0;
        if (a == 0)
            break;
    }
    return tail;
}

/* True when [s, s+n) is at most 3 spaces (CommonMark: deeper is indented
 * text, e.g. a fence inside a YAML block scalar), three or more backticks
 * (or tildes) and optional trailing blanks; *info set when text follows them. */
static bool fence_line(const char *s, size_t n, bool *info)
{
    size_t i = 0, ticks = 0;
    while (i < n && s[i] == ' ')
        i++;
    if (i > 3)
        return false;
    char ch = i < n && s[i] == '~' ? '~' : '`';
    while (i < n && s[i] == ch)
        i++, ticks++;
    if (ticks < 3)
        return false;
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
        i++;
    *info = i < n;
    return true;
}

size_t mf_cand_orphan_fence_cut(const char *s, size_t len, size_t *end, int *line)
{
    *line = 0;
    *end = len;
    /* last non-blank line [ls, le) before any closing tag lines */
    size_t tail = mf_cand_closer_tail(s, len, false), le = tail;
    while (le > 0 && (s[le - 1] == ' ' || s[le - 1] == '\t' || s[le - 1] == '\r' || s[le - 1] == '\n'))
        le--;
    if (le == 0 || (s[le - 1] != '`' && s[le - 1] != '~'))
        return len;                     /* a fence line ends in a backtick or tilde */
    size_t ls = le;
    while (ls > 0 && s[ls - 1] != '\n')
        ls--;
    bool info;
    if (!fence_line(s + ls, le - ls, &info) || info)
        return len;
    long block = -1;                    /* indentation of the `key: |` header whose block we are in */
    for (size_t a = 0; a < ls;) {
        const char *nl = memchr(s + a, '\n', ls - a);
        size_t b = nl ? (size_t)(nl - s) : ls, ind = 0;
        while (a + ind < b && s[a + ind] == ' ')
            ind++;
        bool in_block = block >= 0 && (a + ind >= b || s[a + ind] == '\r' || ind > (size_t)block);
        if (!in_block) {
            block = mf_cand_block_header(s + a, b - a) ? (long)ind : -1;
            if (fence_line(s + a, b - a, &info))
                return len; /* the fence was opened above: not an orphan */
        }
        a = b + 1;
    }
    size_t fence_ind = 0;
    while (ls + fence_ind < le && s[ls + fence_ind] == ' ')
        fence_ind++;
    if (block >= 0 && fence_ind > (size_t)block)
        return len;                     /* the fence line is the block scalar's own text */
    *line = mf_cand_line_at(s, ls);
    *end = tail;
    return ls;
}
