/* echo.c - prompt echo detection (seed 000, "Prompt Echo Detection").
 *
 * Before any parsing, the pipeline checks whether the model returned its own
 * prompt instead of an artifact; repairing such output would only launder the
 * prompt into a bogus artifact, so it is rejected (tier 1, PROMPT_ECHO).
 *
 *   - Marker echo: a hard marker (CRITICAL OUTPUT RULE:, CONTEXT REFRESH:) is
 *     present and at least two distinct markers (hard or soft: ## System Role,
 *     ## Task, ## Instructions, ## Expected Output Format, ## Context) occur.
 *     A soft heading alone never rejects: legit artifacts contain "## Task".
 *   - Schema echo: the output starts with a top-level key of the profile
 *     (e.g. `schema_version:`) and contains a prompt schema marker
 *     (## Expected Output Format, ### ticket_details, # Ticket:).
 *
 * Hard markers match anywhere. Heading markers (those starting with '#') match
 * only as a whole heading word: not preceded by another '#' and not followed
 * by a letter, digit or '_' ("### Tasks" is not "## Task"). Each marker is
 * looked up with one linear scan; the error names every marker found and the
 * line of the earliest. */
#include <ctype.h>
#include <string.h>
#include "internal.h"

typedef enum { HARD, SOFT, SCHEMA } marker_kind;
typedef struct { const char *text; marker_kind kind; } marker;

static const marker markers[] = {
    {"CRITICAL OUTPUT RULE:", HARD},
    {"CONTEXT REFRESH:", HARD},
    {"## System Role", SOFT},
    {"## Task", SOFT},
    {"## Instructions", SOFT},
    {"## Expected Output Format", SOFT},
    {"## Context", SOFT},
    {"### ticket_details", SCHEMA},
    {"# Ticket:", SCHEMA},
};
#define NMARKERS (sizeof markers / sizeof *markers)

static bool word_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Offset of the first match of marker m in s, or (size_t)-1. */
static size_t marker_find(const marker *m, const char *s, size_t len)
{
    size_t ml = strlen(m->text);
    bool heading = m->text[0] == '#';
    for (size_t i = 0; i + ml <= len;) {
        const char *q = memchr(s + i, m->text[0], len - ml + 1 - i);
        if (!q)
            break;
        i = (size_t)(q - s);
        if (memcmp(q, m->text, ml) == 0 &&
            (!heading || ((i == 0 || s[i - 1] != '#') &&
                          (m->text[ml - 1] == ':' || i + ml == len || !word_char(s[i + ml])))))
            return i;
        /* skip a whole run of '#' so "#####..." is not rescanned per byte */
        if (heading)
            while (i < len && s[i] == '#')
                i++;
        else
            i++;
    }
    return (size_t)-1;
}

static int line_of(const char *s, size_t off)
{
    int line = 1;
    for (size_t i = 0; i < off; i++)
        line += s[i] == '\n';
    return line;
}

/* True when the output starts with a top-level key of p (`key:`, `"key":`
 * or `{"key":`). */
static bool starts_with_root_key(const mf_profile *p, const char *s, size_t len)
{
    if (!p)
        return false;
    size_t i = 0;
    while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
        i++;
    if (i < len && s[i] == '{') /* JSON: {"key": ... */
        for (i++; i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n');)
            i++;
    bool quoted = i < len && s[i] == '"';
    if (quoted)
        i++;
    for (size_t k = 0; k < json_array_size(p->top_level_keys); k++) {
        const char *key = json_string_value(json_array_get(p->top_level_keys, k));
        size_t kl = key ? strlen(key) : 0, j = i + kl;
        if (!kl || j > len || memcmp(s + i, key, kl) != 0)
            continue;
        if (quoted && (j >= len || s[j++] != '"'))
            continue;
        if (j < len && s[j] == ':')
            return true;
    }
    return false;
}

bool mf_echo_detect(const mf_profile *p, const char *raw, size_t len, mf_error *err)
{
    if (!raw)
        return false;
    size_t at[NMARKERS];
    size_t hits = 0, hard = 0, schema_hits = 0, first = (size_t)-1;
    bool hash = memchr(raw, '#', len) != NULL; /* most outputs hold no heading: one scan, not one per marker */
    for (size_t m = 0; m < NMARKERS; m++) {
        at[m] = markers[m].text[0] == '#' && !hash ? (size_t)-1 : marker_find(&markers[m], raw, len);
        if (at[m] == (size_t)-1)
            continue;
        if (markers[m].kind != SCHEMA)
            hits++;
        hard += markers[m].kind == HARD;
        schema_hits += markers[m].kind == SCHEMA || strcmp(markers[m].text, "## Expected Output Format") == 0;
    }
    bool marker_echo = hard > 0 && hits >= 2;
    bool schema_echo = !marker_echo && schema_hits > 0 && starts_with_root_key(p, raw, len);
    if (!marker_echo && !schema_echo)
        return false;

    char names[512] = "";
    size_t used = 0;
    for (size_t m = 0; m < NMARKERS; m++) {
        bool counts = marker_echo ? markers[m].kind != SCHEMA
                                  : markers[m].kind == SCHEMA ||
                                        strcmp(markers[m].text, "## Expected Output Format") == 0;
        if (at[m] == (size_t)-1 || !counts)
            continue;
        if (at[m] < first)
            first = at[m];
        int n = snprintf(names + used, sizeof names - used, "%s\"%s\"", used ? ", " : "", markers[m].text);
        if (n > 0 && (size_t)n < sizeof names - used)
            used += (size_t)n;
    }
    if (err) {
        int line = line_of(raw, first);
        size_t col = first;
        while (col > 0 && raw[col - 1] != '\n')
            col--;
        if (marker_echo)
            mf_error_set(err, 1, "PROMPT_ECHO", "", line, (int)(first - col) + 1,
                         "The output echoes the prompt instead of an artifact (prompt markers: %s).", names);
        else
            mf_error_set(err, 1, "PROMPT_ECHO", "", line, (int)(first - col) + 1,
                         "The output starts with a root key but echoes the prompt's output schema (schema markers: %s).",
                         names);
    }
    return true;
}
