/* lc_junit.c - JUnit XML for a nightly (see lc_junit.h). */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lc_junit.h"

static void xml_esc(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '<') fputs("&lt;", f);
        else if (c == '>') fputs("&gt;", f);
        else if (c == '&') fputs("&amp;", f);
        else if (c == '"') fputs("&quot;", f);
        else if (c < 0x20 && c != '\n' && c != '\t') fputc(' ', f);
        else fputc(c, f);
    }
}

char *mf_lc_junit_format(const json_t *items, const json_t *oracles, double seconds, size_t *len)
{
    char *buf = NULL;
    *len = 0;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        return NULL;
    int tests = 0, failures = 0, skipped = 0;
    char *body = NULL;
    size_t blen = 0;
    FILE *b = open_memstream(&body, &blen);
    json_t *seen = json_object();
    size_t i;
    json_t *it;
    json_array_foreach(items, i, it) {
        const char *sig = json_string_value(json_object_get(it, "signature"));
        const char *st = json_string_value(json_object_get(it, "status"));
        if (!sig || !st || json_object_get(seen, sig))
            continue;
        json_object_set_new(seen, sig, json_true());
        tests++;
        fputs("    <testcase classname=\"malform.signature.", b);
        xml_esc(b, json_string_value(json_object_get(it, "kind")));
        fputs("\" name=\"", b);
        xml_esc(b, sig);
        fputs("\" time=\"0\">\n", b);
        const char *entry = json_string_value(json_object_get(it, "entry"));
        if (!strcmp(st, "new")) {
            failures++;
            fputs("      <failure type=\"new-signature\" message=\"", b);
            xml_esc(b, sig);
            fputs("\">", b);
            fputs("new reproducible signature; regression entry: ", b);
            xml_esc(b, entry);
            fputs("\n", b);
            xml_esc(b, json_string_value(json_object_get(it, "detail")));
            fputs("</failure>\n", b);
        } else if (!strcmp(st, "flaky") || !strcmp(st, "not-reproduced") || !strcmp(st, "error")) {
            skipped++;
            fputs("      <skipped message=\"", b);
            xml_esc(b, st);
            fputs("\"/>\n", b);
        } else {
            fputs("      <system-out>known signature, tracked by ", b);
            xml_esc(b, entry);
            fputs("</system-out>\n", b);
        }
        fputs("    </testcase>\n", b);
    }
    const char *name;
    json_t *v;
    json_object_foreach((json_t *)oracles, name, v) {
        tests++;
        json_int_t pass = json_integer_value(json_object_get(v, "pass"));
        json_int_t fail = json_integer_value(json_object_get(v, "fail"));
        bool new_fail = false;
        json_array_foreach(items, i, it) {
            const char *st = json_string_value(json_object_get(it, "status"));
            const char *sig = json_string_value(json_object_get(it, "signature"));
            char pre[96];
            snprintf(pre, sizeof pre, "oracle %s ", name);
            if (st && sig && !strcmp(st, "new") && !strncmp(sig, pre, strlen(pre)))
                new_fail = true;
        }
        fputs("    <testcase classname=\"malform.oracle\" name=\"", b);
        xml_esc(b, name);
        fputs("\" time=\"0\">\n", b);
        if (new_fail) {
            failures++;
            fprintf(b, "      <failure type=\"oracle\" message=\"new signature(s) for this oracle\">%lld of %lld "
                       "checks failed</failure>\n", (long long)fail, (long long)(pass + fail));
        }
        fprintf(b, "      <system-out>pass %lld, fail %lld (failures of known open signatures do not fail this "
                   "test)</system-out>\n    </testcase>\n", (long long)pass, (long long)fail);
    }
    fclose(b);
    json_decref(seen);
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"malform nightly\" tests=\"%d\" "
               "failures=\"%d\" skipped=\"%d\">\n  <testsuite name=\"malform.nightly\" tests=\"%d\" failures=\"%d\" "
               "skipped=\"%d\" errors=\"0\" time=\"%.1f\">\n",
            tests, failures, skipped, tests, failures, skipped, seconds);
    if (body)
        fwrite(body, 1, blen, f);
    fputs("  </testsuite>\n</testsuites>\n", f);
    fclose(f);
    free(body);
    return buf;
}
