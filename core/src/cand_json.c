/* cand_json.c - balanced JSON value scanning (seed 002, A1 "_extract_json":
 * brace counting with string/escape state, largest candidate first; arrays at
 * the root are values too).
 *
 * One pass keeps a stack of open '{' / '[' positions. Once a bracket is open,
 * double-quoted strings are tracked (with backslash escapes) so brackets inside
 * them do not count; outside any bracket, quotes are prose and ignored. Every
 * closing bracket pops the stack and yields a balanced span. Only outermost
 * spans are candidates: a span is outermost when it has no parent bracket, or
 * every bracket around it never closes AND reads as prose ("Note { it's
 * here: {...}"): an opener followed by a plain word and a space. Children of
 * an unclosed opener that starts a JSON value (`{"`, `[1`, ...) are fragments
 * of a truncated artifact and are never offered: a strict parse would accept
 * them and silently drop the rest. Nor is a span after a ',' that a stray
 * closer follows (`}, {...} ]`): the scan lost the collection it belongs to
 * (the span is returned marked lost: a value taking another span would drop).
 * Because a bracket can only close after all
 * its children, "parent never closes" is decided cheaply: each stack level
 * keeps the largest few spans closed directly under it, and the list of a
 * level is dropped when its parent closes. Memory is bounded by MF_JSON_SCAN_DEPTH * max spans; deeper
 * brackets are counted but not recorded (the parser's depth cap rejects them
 * anyway). Linear time. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "cand_internal.h"

#define MF_JSON_SCAN_DEPTH 256

typedef struct {
    mf_cand_span *items; /* max per level */
    size_t count;
    mf_cand_span run;    /* latest span, merged with neighbours it is glued to */
    bool has_run;
} level_list;

/* Keep the max largest spans of a level (ties: the earlier span stays). */
static void level_add(level_list *l, size_t max, mf_cand_span sp)
{
    if (l->count < max) {
        l->items[l->count++] = sp;
        return;
    }
    size_t low = 0;
    for (size_t i = 1; i < l->count; i++) {
        size_t a = l->items[i].end - l->items[i].start, b = l->items[low].end - l->items[low].start;
        if (a < b || (a == b && l->items[i].start > l->items[low].start))
            low = i;
    }
    if (sp.end - sp.start > l->items[low].end - l->items[low].start)
        l->items[low] = sp;
}

/* An unclosed opener at i followed by a sentence word ("{ it's", "[see ")
 * or digits that are no number ("[200~") rather than the start of a JSON value. */
static bool prose_opener(const char *s, size_t len, size_t i)
{
    size_t j = i + 1;
    while (j < len && (s[j] == ' ' || s[j] == '\t'))
        j++;
    size_t d = j;                       /* `[200~` (a bracketed-paste marker), `[2nd`: digits, then no number */
    while (d < len && isdigit((unsigned char)s[d]))
        d++;
    if (d > j && d < len && !strchr(" \t\r\n,]}.eE+-", s[d]))
        return true;
    size_t w = j;
    while (j < len && j - w < 64 && (isalpha((unsigned char)s[j]) || s[j] == '\''))
        j++;
    if (j == w || j == len || (s[j] != ' ' && s[j] != '\t'))
        return false;
    static const char *const lit[] = {"true", "false", "null", NULL};
    for (const char *const *l = lit; *l; l++)
        if (strlen(*l) == j - w && memcmp(s + w, *l, j - w) == 0)
            return false;
    return true;
}

/* Only blanks, ',' or ';' between a and b. */
static bool glued(const char *s, size_t a, size_t b)
{
    while (a < b && (s[a] == ' ' || s[a] == '\t' || s[a] == '\r' || s[a] == '\n' || s[a] == ',' ||
                     s[a] == ';'))
        a++;
    return a == b;
}

/* Record a span closed on level l. Values separated only by blanks, ',' or
 * ';' ({"a":1}{"b":2}, JSON Lines) are one concatenated artifact, never
 * separate candidates: they extend the level's run, which is added when a
 * span that is not glued to it arrives (or at the end). The gap scan covers
 * disjoint ranges: linear overall. */
static void level_record(level_list *l, size_t max, const char *s, mf_cand_span sp)
{
    if (l->has_run) {
        if (glued(s, l->run.end, sp.start)) {
            l->run.end = sp.end;
            return;
        }
        level_add(l, max, l->run);
    }
    l->run = sp;
    l->has_run = true;
}

/* Is the last non-blank byte before offset a a ','? A span there that a stray
 * closer follows (`},` + `{"task_id": ...}` + `]`) is an element of a collection
 * whose opener the scan lost (an unescaped quote before it turned the string
 * state over, so a '}' inside a string closed the artifact early; run 43
 * 270ddcbe): taken alone it would drop the rest of the artifact. */
static bool after_comma(const char *s, size_t a)
{
    while (a > 0 && (s[a - 1] == ' ' || s[a - 1] == '\t' || s[a - 1] == '\r' || s[a - 1] == '\n'))
        a--;
    return a > 0 && s[a - 1] == ',';
}

static void level_reset(level_list *l)
{
    l->count = 0;
    l->has_run = false;
}

static int span_cmp(const void *x, const void *y)
{
    const mf_cand_span *a = x, *b = y;
    size_t la = a->end - a->start, lb = b->end - b->start;
    if (la != lb)
        return la > lb ? -1 : 1;
    return a->start < b->start ? -1 : a->start > b->start;
}

/* Offset just past a reasoning tag at s + i (`<think>`, `<thinking>`,
 * `<reasoning>`, or their closing tags when closing), or 0. */
static size_t reasoning_tag(const char *s, size_t len, size_t i, bool closing)
{
    static const char *const names[] = {"think>", "thinking>", "reasoning>"};
    size_t k = i + 1 + closing;
    if (s[i] != '<' || k >= len || (closing && s[i + 1] != '/'))
        return 0;
    for (size_t n = 0; n < sizeof names / sizeof *names; n++) {
        size_t l = strlen(names[n]);
        if (len - k >= l && strncasecmp(s + k, names[n], l) == 0)
            return k + l;
    }
    return 0;
}

size_t mf_cand_reasoning_end(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
        i++;
    size_t open = i < len ? reasoning_tag(s, len, i, false) : 0;
    for (i = open; open && i < len; i++) {
        size_t e;
        if (s[i] == '<' && (e = reasoning_tag(s, len, i, true)))
            return e;
    }
    return 0;
}

/* Spans after a leading reasoning block first (in their order), those inside
 * it after them: a JSON draft inside `<think>` must not win over the answer. */
static void answer_first(const char *s, size_t len, mf_cand_span *sp, size_t n)
{
    size_t end = mf_cand_reasoning_end(s, len), k = 0;
    if (!end)
        return;
    for (size_t i = 0; i < n; i++)
        if (sp[i].start >= end) {
            mf_cand_span x = sp[i];
            memmove(sp + k + 1, sp + k, (i - k) * sizeof *sp);
            sp[k++] = x;
        }
}

size_t mf_cand_json_spans(const char *s, size_t len, mf_cand_span *out, size_t max)
{
    if (max == 0)
        return 0;
    size_t levels = MF_JSON_SCAN_DEPTH + 1;
    size_t *stack = malloc(MF_JSON_SCAN_DEPTH * sizeof *stack);
    level_list *lv = malloc(levels * sizeof *lv); /* a level is reset when its bracket opens */
    mf_cand_span *pool = malloc(levels * max * sizeof *pool);
    if (!stack || !lv || !pool) {
        free(stack), free(lv), free(pool);
        return (size_t)-1;
    }
    for (size_t i = 0; i < levels; i++)
        lv[i].items = pool + i * max;
    level_reset(&lv[0]);

    size_t sp = 0, overflow = 0;
    bool in_str = false, esc = false;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (in_str) {
            if (esc)
                esc = false;
            else if (c == '\\')
                esc = true;
            else if (c == '"')
                in_str = false;
            continue;
        }
        if (c == '"' && (sp || overflow)) {
            in_str = true;
        } else if (c == '{' || c == '[') {
            if (sp < MF_JSON_SCAN_DEPTH && !overflow) {
                stack[sp++] = i;
                level_reset(&lv[sp]); /* children of this new bracket */
            } else {
                overflow++;
            }
        } else if (c == '}' || c == ']') {
            if (overflow) {
                overflow--;
            } else if (sp) {
                size_t start = stack[--sp];
                level_reset(&lv[sp + 1]); /* its children are not outermost */
                level_record(&lv[sp], max, s, (mf_cand_span){start, i + 1, false});
            } else if (lv[0].has_run && glued(s, lv[0].run.end, i) && after_comma(s, lv[0].run.start)) {
                lv[0].run.lost = true; /* `}, {...}` + `]`: an element of a collection the scan lost */
            }
        }
    }
    /* levels 0..sp hold spans whose parents never closed; keep the levels
     * under prose openers only */
    size_t n = 0;
    for (size_t l = 0; l <= sp; l++) {
        if (l > 0 && !prose_opener(s, len, stack[l - 1]))
            break;
        /* a run glued to an unclosed JSON opener on its level ("{..}, {"b": tru")
         * is the head of a truncated concatenation: not a candidate */
        if (lv[l].has_run && !(l < sp && glued(s, lv[l].run.end, stack[l]) && !prose_opener(s, len, stack[l])))
            level_add(&lv[l], max, lv[l].run);
        for (size_t k = 0; k < lv[l].count; k++)
            pool[n++] = lv[l].items[k]; /* n <= l*max + k: never overwrites unread items */
    }
    qsort(pool, n, sizeof *pool, span_cmp);
    answer_first(s, len, pool, n);
    if (n > max)
        n = max;
    memcpy(out, pool, n * sizeof *out);
    free(stack), free(lv), free(pool);
    return n;
}

/* A fence line at b (line end e): up to 3 spaces, then 3 or more backticks
 * or tildes. Returns the run's length (its kind in *kind), *bare when only
 * blanks follow the run; 0 for no fence line. */
static size_t fence_line(const char *s, size_t b, size_t e, char *kind, bool *bare)
{
    size_t k = b;
    while (k < e && k - b < 3 && s[k] == ' ')
        k++;
    if (k >= e || (s[k] != '`' && s[k] != '~'))
        return 0;
    size_t r = k;
    while (r < e && s[r] == s[k])
        r++;
    if (r - k < 3)
        return 0;
    *kind = s[k];
    size_t t = r;
    while (t < e && (s[t] == ' ' || s[t] == '\t' || s[t] == '\r'))
        t++;
    *bare = t == e;
    if (s[k] == '`' && memchr(s + r, '`', e - r))
        return 0;                       /* ```a``` : inline code, no fence */
    return r - k;
}

size_t mf_cand_fence_end(const char *s, size_t len, size_t st, bool *inside)
{
    *inside = false;
    char open_kind = 0;
    size_t open_run = 0;
    size_t b = 0;
    for (; b < st;) {                   /* lines that end before st: is a fence open at st? */
        const char *nl = memchr(s + b, '\n', len - b);
        size_t e = nl ? (size_t)(nl - s) : len;
        if (e >= st)
            break;
        char kind;
        bool bare;
        size_t run = fence_line(s, b, e, &kind, &bare);
        if (run && !open_run) {
            open_kind = kind, open_run = run;
        } else if (run && kind == open_kind && run >= open_run && bare) {
            open_run = 0;
        }
        b = e + 1;
    }
    if (!open_run)
        return len;
    size_t last = st;                   /* the last JSON structure after st */
    for (size_t k = len; k > st; k--)
        if (s[k - 1] == '{' || s[k - 1] == '[' || s[k - 1] == '"') {
            last = k - 1;
            break;
        }
    const char *nl;
    for (b = st; b < len;) {            /* the first closing fence line after that structure */
        nl = memchr(s + b, '\n', len - b);
        size_t e = nl ? (size_t)(nl - s) : len;
        char kind;
        bool bare;
        size_t run = b > st && (s[b - 1] == '\n') ? fence_line(s, b, e, &kind, &bare) : 0;
        if (run && kind == open_kind && run >= open_run && bare) {
            if (b > last)
                return b;
            *inside = true;             /* structure follows it: a fence of the text, or prose we cannot tell */
        }
        b = e + 1;
    }
    return len;
}
