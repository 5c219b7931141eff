/* pipeline.c - mf_repair: raw model output in, artifact or rejection out.
 *
 * The order is fixed (see malform.h): input limits and encoding, prompt echo,
 * then candidates. The raw text is tried first with a strict parse, so clean
 * artifacts cost one parse plus normalization. Only when that fails are the
 * other candidates built. Pass A tries each candidate strictly (no syntax
 * repair); pass B tries them again with the structural repairs, re-parsing
 * after each YAML repair group. Balanced-JSON extractions ("json-balanced",
 * "json-span") are pass-B only: they can cut one value out of several
 * (JSONL, glued objects), so the raw text's JSON repair, which keeps them all,
 * goes first. Within each pass the preferred candidates go first: the
 * profile's <TAG> envelope ("tag", "tag-truncated", also on the
 * prefix-stripped text) and "prose-trimmed". The envelope is the model's own
 * statement of where the artifact is; if the raw or prefix-stripped text went
 * first, pass B's yaml.xml-tag-lines would drop the tag lines and accept the
 * prose before them ("Work finished. Final marker:") as an invented key.
 * With such a leading prose line the preferred candidates get both passes
 * before any other candidate's pass A: pass A's misread repairs (a tag line
 * next to a `...`) strip the tag lines just the same.
 * A leading prose line that YAML reads as a key ("Okay, here it is:" before
 * a mapping; cand_prose.c) also skips the raw-first fast path: the raw text
 * parses, but with an invented key. So does trailing prose that parses as a
 * key the profile does not know ("That's all: let me know ..."); the tidied
 * candidates (even "raw") have it cut with a cand.trailing-prose warning. So
 * do trailing prose with a closing tag or fence line among it and a leading
 * reasoning block: the raw text's misread repairs (tag lines, a `---` closer)
 * may make it parse with that text as a document of its own. A candidate is valid when it parses and
 * survives unwrapping, aliasing, the profile's normalizers, schema
 * normalization and validation. First valid wins. For the generic profiles a
 * scalar root is a weak win: a later candidate with a mapping or sequence root
 * is preferred (prose like "Sure!" parses as a YAML string), except the raw
 * text when it holds such leading or trailing prose.
 * A profile with text_fallback (artifact_files: seed 001's strict markdown
 * fallback) gets one last try: the raw text as a single JSON string, which
 * its normalizer parses or rejects precisely (MISSING_FILES).
 * When nothing is valid, the rejection is that of the attempt that got
 * furthest (highest tier), the earliest among equals. */
#define _GNU_SOURCE /* memmem */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cand_internal.h"
#include "json_strict.h"
#include "schema_compile.h"

typedef struct {
    const mf_profile *p;
    const mf_options *o;
    const char *raw;       /* the input, checked to be valid UTF-8 */
    size_t raw_len;
    int max_depth;
    mf_result *r;          /* best rejection so far lives in r->error */
    json_t *weak;          /* generic profiles: scalar-root fallback */
    mf_warnings weak_w;
    char *weak_name, *weak_text;
    /* JSON: the repaired parse of a text that pass A (strict) turned down,
     * kept so that pass B does not scan the same bytes again */
    json_t *stash;
    mf_warnings stash_w;
    const char *stash_text;
    size_t stash_len;
    /* YAML: the text (after the misread repairs, with their warnings) whose
     * parse failed in pass A; pass B starts its repair groups from it instead
     * of repeating the same repairs and the same failing parse */
    bool ystash;
    const char *ystash_src;
    size_t ystash_len;
    mf_buf ystash_text;
    mf_warnings ystash_w;
} run;

static bool is_generic(const mf_profile *p)
{
    return p->compiled->generic;
}

static void line_col(const char *s, size_t off, int *line, int *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < off; i++) {
        if (s[i] == '\n') (*line)++, *col = 1;
        else (*col)++;
    }
}

/* Keep err as the run's rejection when it got further than the current one: a
 * higher tier, or a syntax error where the current one is the reader's stop at a
 * control byte (the raw candidate's terminal noise, which the trimmed candidate
 * leaves out; run 26: the real error was named "control characters"). */
static void offer_error(run *R, mf_error *err)
{
    const mf_error *cur = &R->r->error;
    if (err->tier > cur->tier || (err->tier == cur->tier && mf_yaml_error_is_control_char(cur) &&
                                  !mf_yaml_error_is_control_char(err))) {
        mf_error_clear(&R->r->error);
        R->r->error = *err;
        memset(err, 0, sizeof *err);
    } else {
        mf_error_clear(err);
    }
}


/* Parse text (no syntax repair) and finish. 0 = valid, value in *v. */
static int parse_and_finish(run *R, const char *text, size_t len, bool allow_json_repair,
                            json_t **v, mf_warnings *w, mf_error *err)
{
    *v = NULL;
    bool renamed_key = true; /* unknown for JSON */
    if (R->p->format == MF_FORMAT_JSON) {
        size_t before = w->count;
        if (R->stash && len == R->stash_len && memcmp(text, R->stash_text, len) == 0) {
            *v = R->stash;
            R->stash = NULL;
            mf_warnings_take(w, &R->stash_w);
        } else if (mf_json_parse_repair(text, len, R->p, R->max_depth, text == R->raw && len == R->raw_len, v, w,
                                        err)) {
            return -1;
        }
        if (!allow_json_repair && w->count > before) {
            json_decref(R->stash);
            mf_warnings_clear(&R->stash_w);
            R->stash = NULL;
            if (before == 0) { /* always so for JSON: the attempt's list starts empty */
                R->stash = *v;
                R->stash_w = *w;
                R->stash_text = text;
                R->stash_len = len;
                memset(w, 0, sizeof *w);
            } else {
                json_decref(*v);
                mf_warnings_truncate(w, before);
            }
            *v = NULL;
            err->tier = 1; /* pass A's caller drops this error (the repair waits in the stash): no message */
            err->type = "JSON_SYNTAX_ERROR";
            return -1;
        }
    } else {
        mf_yaml_load_opts lo = {.profile = R->p, .max_depth = R->max_depth, .renamed_key = &renamed_key};
        renamed_key = false;
        if (mf_yaml_load(text, len, &lo, v, err))
            return -1;
    }
    if (mf_normalize(R->p, R->o, v, !renamed_key, w, err)) {
        json_decref(*v);
        *v = NULL;
        return -1;
    }
    return 0;
}

/* A cap or out-of-memory error ends the run (no other attempt can do better):
 * err becomes the result's error, w and text are freed. Returns -1. */
static int end_run(run *R, mf_error *err, mf_warnings *w, mf_buf *text)
{
    mf_error_clear(&R->r->error);
    R->r->error = *err;
    mf_warnings_clear(w);
    mf_buf_free(text);
    return -1;
}

/* Pass B's YAML repair groups over text, re-parsing after each group that
 * changed it: 1 when a parse succeeded (*v set), 0 when none did (the best
 * error offered), -1 when a cap or out-of-memory ends the run (the error is
 * in R->r; text and w are freed). */
static int repair_groups(run *R, mf_buf *text, json_t **v, mf_warnings *w)
{
    mf_error err = {0};
    mf_yaml_lines *lines = NULL; /* one line model for the groups up to the next parse */
    int ok = 0;
    for (int g = 1; g <= MF_YAML_GROUPS && !ok; g++) {
        if (mf_yaml_repair_group_on(g, text, &lines, R->p, w) == 0)
            continue;
        mf_yaml_lines_free(lines); /* not held through the parse: peak memory stays the parse's */
        lines = NULL;
        mf_yaml_repair_glued_comments(text, R->p, w); /* a '#' the group's repairs glued to a quote */
        size_t repaired = w->count;
        ok = parse_and_finish(R, mf_buf_cstr(text), text->len, true, v, w, &err) == 0;
        if (!ok && mf_error_is_final(&err))
            return end_run(R, &err, w, text);
        if (!ok) {
            offer_error(R, &err);
            mf_error_clear(&err);
            mf_warnings_truncate(w, repaired); /* keep repair warnings, drop normalizer ones */
        }
    }
    mf_yaml_lines_free(lines);
    return ok;
}

/* Does the candidate [s, s+n), blanks around it aside, start inside the
 * quotes of the weak win, a JSON string (`"{a:b}"` in a fence), as part of
 * that string's bytes? Then it was taken from the string's text: the
 * balanced `{a:b}`, or the span from a `[` the string holds, is the string's
 * content, not a value. */
static bool inside_weak_string(const run *R, const char *s, size_t n)
{
    if (!json_is_string(R->weak) || !R->weak_text)
        return false;
    const char *w = R->weak_text;
    size_t wl = strlen(w);
    while (wl > 0 && strchr(" \t\r\n", w[0]))
        w++, wl--;
    while (wl > 0 && strchr(" \t\r\n", w[wl - 1]))
        wl--;
    while (n > 0 && strchr(" \t\r\n", s[0]))
        s++, n--;
    while (n > 0 && strchr(" \t\r\n", s[n - 1]))
        n--;
    if (wl < 2 || w[0] != '"' || w[wl - 1] != '"' || n == 0 || n >= wl)
        return false;
    const char *at = memmem(w + 1, wl - 1, s, n);
    return at && at < w + wl - 1;
}

/* Is c a balanced JSON span whose repair ended a string at the span's end
 * (json.truncated, or json.missing-quote before the closers that end the input)?
 * The span closes every bracket it opens, so its last closer stood inside a
 * string (after an unescaped quote the repairs escaped: `}">` in an HTML
 * fragment): the rest of the value follows the span, and taking it would drop
 * that rest. */
static bool cut_balanced_span(const mf_candidate *c, const mf_warnings *w)
{
    if (strncmp(c->name, "json-balanced", 13) != 0)
        return false;
    if (mf_warnings_has(w, MF_RULE_ID(JSON_TRUNCATED)))
        return true;
    for (size_t i = 0; i < w->count; i++)
        if (w->items[i].rule && strcmp(w->items[i].rule, MF_RULE_ID(JSON_MISSING_QUOTE)) == 0 &&
            w->items[i].message && strstr(w->items[i].message, "that end the input"))
            return true;
    return false;
}

/* Try one candidate; on success fill R->r and return 1 (or stash a weak win);
 * -1 when a cap or out-of-memory ends the whole run (the error is in R->r). */
static int try_candidate(run *R, mf_candidate *c, bool repair)
{
    mf_warnings w = {0};
    mf_error err = {0};
    json_t *v = NULL;
    mf_buf text = {0};
    bool yaml = R->p->format == MF_FORMAT_YAML;
    bool seen = yaml && repair && R->ystash && c->len == R->ystash_len && memcmp(c->text, R->ystash_src, c->len) == 0;
    if (seen) { /* pass A parsed these very bytes and failed: the same parse would fail again */
        text = R->ystash_text;
        w = R->ystash_w;
        memset(&R->ystash_text, 0, sizeof R->ystash_text);
        memset(&R->ystash_w, 0, sizeof R->ystash_w);
        R->ystash = false;
    } else if (yaml) { /* repairs needed although the text parses (it parses to another value) */
        mf_buf_put(&text, c->text, c->len);
        mf_yaml_repair_misread(&text, R->p, &w);
    }
    size_t misread = w.count; /* those repairs stand whatever the parse says */
    int ok = !seen && parse_and_finish(R, yaml ? mf_buf_cstr(&text) : c->text, yaml ? text.len : c->len, repair,
                                       &v, &w, &err) == 0;
    if (!ok && mf_error_is_final(&err))
        return end_run(R, &err, &w, &text);
    if (!ok) {
        /* in pass A a JSON candidate that needed repair is not a rejection yet */
        if (!(R->p->format == MF_FORMAT_JSON && !repair))
            offer_error(R, &err);
        mf_error_clear(&err);
        mf_warnings_truncate(&w, misread);
        if (yaml && !repair && !R->ystash) {
            R->ystash = true;
            R->ystash_src = c->text;
            R->ystash_len = c->len;
            R->ystash_text = text;
            R->ystash_w = w;
            return 0;
        }
    }
    if (!ok && repair && R->p->format == MF_FORMAT_YAML) {
        ok = repair_groups(R, &text, &v, &w);
        if (ok < 0)
            return -1;
    }
    if (!ok && repair && yaml && misread > 0) {
        /* the misread repairs guessed (`-e: m` under `changes:` as a list item), and neither that
         * text nor any repair of it loads: the candidate's own text, when it loads, is what it says */
        mf_warnings_clear(&w);
        mf_buf_free(&text);
        mf_buf_put(&text, c->text, c->len);
        mf_yaml_repair_misread_sure(&text, R->p, &w); /* a trailing `---` closer is no guess: it stays dropped */
        size_t sure = w.count;
        ok = parse_and_finish(R, mf_buf_cstr(&text), text.len, true, &v, &w, &err) == 0;
        if (!ok && mf_error_is_final(&err))
            return end_run(R, &err, &w, &text);
        if (!ok) {
            offer_error(R, &err); /* a schema error of the text as written outranks the guess's syntax error */
            mf_error_clear(&err);
            mf_warnings_truncate(&w, sure);
            /* the text as written may need the structural repairs the guess's text could not use
             * (`-atrix:` + a stray `<yaml>` line: the tag line goes, the key stays) */
            ok = repair_groups(R, &text, &v, &w);
            if (ok < 0)
                return -1;
        }
    }
    if (ok && cut_balanced_span(c, &w)) {
        json_decref(v);
        ok = 0;
    }
    if (!ok) {
        mf_warnings_clear(&w);
        mf_buf_free(&text);
        return 0;
    }
    if (!yaml) /* JSON parses the candidate's own bytes: the result's copy is made for a win only */
        mf_buf_put(&text, c->text, c->len);
    mf_warnings all = {0};
    for (size_t i = 0; i < c->warnings.count; i++)
        mf_warnings_add_text(&all, c->warnings.items[i].rule, c->warnings.items[i].line,
                        c->warnings.items[i].message);
    if (strcmp(c->name, "raw") != 0)
        mf_warnings_add(&all, MF_RULE_ID(CAND_RECOVERED), 0, "Recovered the structured artifact from "
                        "surrounding transcript or wrapper text before validation.");
    if (all.count == 0) {
        all = w; /* the common case: nothing owed by the candidate */
        memset(&w, 0, sizeof w);
    } else {
        mf_warnings_take(&all, &w);
    }

    if (is_generic(R->p) && !json_is_object(v) && !json_is_array(v)) {
        if (!R->weak) {
            R->weak = v;
            R->weak_w = all;
            R->weak_name = mf_strdup0(c->name);
            R->weak_text = mf_buf_detach(&text);
        } else {
            json_decref(v);
            mf_warnings_clear(&all);
        }
        mf_buf_free(&text);
        return 0;
    }
    if (R->weak && !yaml && inside_weak_string(R, c->text, c->len)) {
        json_decref(v);
        mf_warnings_clear(&all);
        mf_buf_free(&text);
        return 0;
    }
    R->r->value = v;
    R->r->warnings = all;
    R->r->candidate = mf_strdup0(c->name);
    R->r->text = mf_buf_detach(&text);
    return 1;
}

/* Candidates tried first in each pass: the profile's own tag envelope and the
 * text without a leading prose line. Trying them after the raw or
 * prefix-stripped text would let that text's structural repairs (dropping the
 * tag lines, yaml.xml-tag-lines) accept the prose around them as a key. For
 * JSON, the prefix-stripped text and every candidate cut from it (a fence's
 * payload, "fence+prefix-stripped") too: the raw text's repair reads a role
 * prefix ("[tool] {") as an array of a bare word; for that reason a JSON
 * answer after a reasoning block is not preferred while its lines hold one.
 * The level (3 first, 0 last) orders candidates within a pass. */
static int preferred(const mf_profile *p, const mf_candidate *c)
{
    const char *name = c->name;
    size_t n = strlen(name);
    bool envelope = strncmp(name, "tag", 3) == 0 || strncmp(name, "prose-trimmed", 13) == 0;
    bool answer = n >= 15 && memcmp(name + n - 15, "after-reasoning", 15) == 0;
    if (envelope && answer)
        return 3;   /* the envelope in the answer after a reasoning block: before that whole answer, for
                     * the same reason (the answer's prose line before the tag is no key) */
    bool stripped = strcmp(name, "prefix-stripped") == 0 ||
                    (n >= 16 && memcmp(name + n - 16, "+prefix-stripped", 16) == 0);
    bool json = p->format == MF_FORMAT_JSON;
    /* JSON: an answer whose lines still carry role prefixes waits for its stripped copy, which is
     * preferred too (`[error] [` + `[error]   \`x\`` in a fence read as arrays of bare words, run 48
     * ece5c5b1) */
    if (answer && json && !stripped && mf_cand_prefixed_line(c->text, c->len))
        answer = false;
    if (envelope || answer || (json && stripped))
        return 2;
    /* then a fence's payload (or another cut) that dropped its own leading prose line (`<TAG>` +
     * `Status update: done` in a fence, run 55 2b997c3a): the raw text's repair unwraps the fence and
     * keeps that line as a key */
    return mf_warnings_has(&c->warnings, MF_RULE_ID(CAND_LEADING_PROSE)) ? 1 : 0;
}

static const mf_profile *detect_profile(const char *s, size_t n)
{
    size_t i = 0;
    for (;;) {
        while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
            i++;
        if (i < n && s[i] == '[') { /* a transcript prefix like [assistant/gpt-4o] */
            size_t j = i + 1;
            while (j < n && (s[j] == '/' || s[j] == '-' || s[j] == '.' || s[j] == '_' ||
                             (s[j] >= 'a' && s[j] <= 'z') || (s[j] >= 'A' && s[j] <= 'Z') ||
                             (s[j] >= '0' && s[j] <= '9')))
                j++;
            if (j < n && j > i + 1 && s[j] == ']' && ((s[i + 1] >= 'a' && s[i + 1] <= 'z') ||
                                                      (s[i + 1] >= 'A' && s[i + 1] <= 'Z'))) {
                i = j + 1;
                continue;
            }
        }
        break;
    }
    bool json = i < n && (s[i] == '{' || s[i] == '[');
    if (!json) {
        static const char fence[] = "```json";
        for (size_t k = 0; k + sizeof fence - 1 <= n && !json; k++)
            json = memcmp(s + k, fence, sizeof fence - 1) == 0;
    }
    return mf_profiles_get(json ? "generic_json" : "generic_yaml");
}

static mf_result *repair(const mf_profile *p, const char *raw, size_t len, const mf_options *opt)
{
    static const mf_options no_options;
    mf_result *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->status = MF_REJECTED;
    if (!opt)
        opt = &no_options;
    size_t max_input = opt->max_input ? opt->max_input : MF_DEFAULT_MAX_INPUT;
    if (!raw)
        raw = "", len = 0;
    if (len >= 3 && memcmp(raw, "\xEF\xBB\xBF", 3) == 0)
        raw += 3, len -= 3;
    if (!p)
        p = detect_profile(raw, len);
    if (!p) {
        mf_error_set(&r->error, 1, "YAML_SYNTAX_ERROR", "", 0, 0, "built-in profiles are missing");
        return r;
    }
    r->profile = p->name;
    if (len > max_input) {
        mf_error_set(&r->error, 1, "INPUT_TOO_LARGE", "", 0, 0,
                     "input is larger than the size cap of %zu bytes", max_input);
        return r;
    }
    size_t bad = mf_utf8_invalid_at(raw, len);
    if (bad < len) {
        int line, col;
        line_col(raw, bad, &line, &col);
        mf_error_set(&r->error, 1, "ENCODING_ERROR", "", line, col,
                     "invalid UTF-8 at byte %zu (0x%02X)", bad, (unsigned char)raw[bad]);
        return r;
    }
    if (mf_echo_detect(p, raw, len, &r->error))
        return r;

    run R = {p, opt, raw, len, opt->max_depth ? opt->max_depth : MF_DEFAULT_MAX_DEPTH, r, NULL, {0}, NULL, NULL,
             NULL, {0}, NULL, 0, false, NULL, 0, {0}, {0}};
    mf_candidate rawc = {(char *)"raw", (char *)raw, len, {0}};
    bool keyed, closed;
    int tline;
    size_t tail = mf_cand_trailing_cut(p, raw, len, &tline, &keyed, &closed);
    bool lead = mf_cand_leading_prose(p, raw, len, NULL), prose = lead || keyed;
    /* the raw text's misread repairs may make it parse with text the candidates
     * leave out: prose after a closing tag or fence (`<artifact>` + `---` + ... +
     * `</artifact>` + "Let me know ...": the tag lines go, the prose stays a second
     * document), a leading reasoning block before a `---` (a first document) */
    size_t think = mf_cand_reasoning_end(raw, len);
    bool skip = prose || (tail < len && closed);
    for (size_t k = think; k && k < len && !skip; k++)
        skip = raw[k] != ' ' && raw[k] != '\t' && raw[k] != '\r' && raw[k] != '\n';
    int won = skip ? 0 : try_candidate(&R, &rawc, false);
    if (!won) {
        mf_candidates cs;
        /* a stash of the raw text: its strict parse failed, candidates need not parse it again */
        bool nonstrict = R.stash && R.stash_text == raw && R.stash_len == len;
        if (mf_candidates_build_step(p, raw, len, 1, nonstrict, &cs) == 0) {
            /* leading prose: the preferred candidates (the envelope, the prose-trimmed text) get
             * both passes before the others' pass A, whose misread repairs (yr_fix_tag_documents:
             * a tag line next to a `...`) may strip the tag lines and read the prose as a key */
            for (int step = 0; step < 8 && !won; step++) {
                int pass = lead ? step % 2 : step / 4, first = lead ? 3 - step / 2 : 3 - step % 4;
                for (size_t i = 0; i < cs.count && !won; i++) {
                    bool same_as_raw = strcmp(cs.items[i].name, "raw") == 0 && cs.items[i].len == len &&
                                       cs.items[i].warnings.count == 0;
                    if (preferred(p, &cs.items[i]) != first || (pass == 0 && same_as_raw) ||
                        (same_as_raw && prose && R.weak))
                        continue;   /* the raw reading holds the prose: no better than a trimmed scalar */
                    won = try_candidate(&R, &cs.items[i], pass == 1);
                }
            }
            /* the JSON extractions go last in pass B (never preferred, never in pass A): built only now */
            size_t before = cs.count;
            if (!won && p->format == MF_FORMAT_JSON && mf_candidates_build_step(p, raw, len, 2, nonstrict, &cs) == 0)
                for (size_t i = before; i < cs.count && !won; i++)
                    won = try_candidate(&R, &cs.items[i], true);
            mf_candidates_free(&cs);
        }
    }
    /* the text fallback reads the raw text, then (when lines carry transcript
     * role prefixes, which cand.transcript-prefix strips) the stripped text */
    mf_buf stripped = {0};
    int first_prefixed = 0;
    size_t nstrip = !won && p->text_fallback ? mf_cand_strip_prefixes(raw, len, &stripped, &first_prefixed) : 0;
    for (int t = 0; t < (nstrip && nstrip != (size_t)-1 ? 2 : 1) && !won && p->text_fallback; t++) {
        const char *text = t ? stripped.s : raw;
        size_t tlen = t ? stripped.len : len;
        mf_warnings w = {0};
        mf_error err = {0};
        json_t *v = json_stringn(text, tlen);
        if (t && mf_warnings_add(&w, MF_RULE_ID(CAND_TRANSCRIPT_PREFIX), first_prefixed,
                                 "Stripped transcript role prefixes (e.g. [assistant]) from %zu line%s before parsing.",
                                 nstrip, nstrip == 1 ? "" : "s")) {
            json_decref(v);
            v = NULL;
        }
        if (v && mf_normalize(p, R.o, &v, false, &w, &err) == 0) {
            r->value = v;
            r->warnings = w;
            r->candidate = mf_strdup0(t ? "text-fallback+prefix-stripped" : "text-fallback");
            r->text = mf_strndup(text, tlen);
            won = 1;
        } else {
            json_decref(v);
            mf_warnings_clear(&w);
            offer_error(&R, &err);
        }
    }
    mf_buf_free(&stripped);
    if (!won && R.weak) {
        r->value = R.weak;
        r->warnings = R.weak_w;
        r->candidate = R.weak_name;
        r->text = R.weak_text;
        won = 1;
    } else {
        json_decref(R.weak);
        mf_warnings_clear(&R.weak_w);
        free(R.weak_name);
        free(R.weak_text);
    }
    json_decref(R.stash);
    mf_warnings_clear(&R.stash_w);
    mf_buf_free(&R.ystash_text);
    mf_warnings_clear(&R.ystash_w);
    if (won < 0) {
        won = 0;
    } else if (won) {
        r->status = MF_ACCEPTED;
        mf_error_clear(&r->error);
        r->repair_applied = r->warnings.count > 0 || !r->candidate || strcmp(r->candidate, "raw") != 0;
    } else if (!r->error.tier) {
        mf_error_set(&r->error, 1, p->format == MF_FORMAT_JSON ? "JSON_SYNTAX_ERROR" : "YAML_SYNTAX_ERROR",
                     "", 0, 0, "no candidate could be parsed");
    }
    return r;
}

mf_result *mf_repair(const mf_profile *p, const char *raw, size_t len, const mf_options *opt)
{
    mf_oom_hook_jansson();
    size_t oom_before = mf_oom_count(), refused_before = mf_mem_refused();
    size_t budget = mf_mem_budget_set(MF_MEMORY_FACTOR * (len < MF_DEFAULT_MAX_INPUT ? len : MF_DEFAULT_MAX_INPUT) +
                                      MF_MEMORY_CONSTANT);
    mf_result *r = repair(p, raw, len, opt);
    mf_mem_budget_restore(budget);
    if (r && mf_oom_count() != oom_before)
        mf_result_reject_oom(r, mf_mem_refused() != refused_before);
    return r;
}
