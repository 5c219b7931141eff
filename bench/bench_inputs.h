/* bench_inputs.h - the byte sets the bench times: corpus files and generated shapes. */
#ifndef MALFORM_BENCH_INPUTS_H
#define MALFORM_BENCH_INPUTS_H

#include <stddef.h>
#include "malform/malform.h"

typedef struct { char *text; size_t len; const mf_profile *p; } bench_input;
typedef struct { bench_input *v; size_t n, cap; size_t bytes; } bench_inputs;

/* Append one input (text is taken over). */
void bench_inputs_add(bench_inputs *in, char *text, size_t len, const mf_profile *p);
/* Append the file at path; 0, or -1 when it cannot be read. */
int bench_inputs_add_file(bench_inputs *in, const char *path, const mf_profile *p);
/* Append the files of dir (one level, or two with nested) ending in ext, sorted by name. */
void bench_inputs_add_dir(bench_inputs *in, const char *dir, const char *ext, const mf_profile *p,
                          int nested);
/* Release every input. */
void bench_inputs_free(bench_inputs *in);
/* Write each input to dir/NNNNN.json (for the node peer); 0, or -1 on error. */
int bench_inputs_write_dir(const bench_inputs *in, const char *dir);

/* A clean artifact of about `bytes` bytes grown from the seed at seed_path
 * (PRD: epics repeated with fresh ids; code_files: files with fresh paths).
 * Returns the text (caller frees) or NULL when the seed cannot be read. */
char *bench_big_artifact(const char *seed_path, const mf_profile *p, size_t bytes, size_t *len);

/* Malformation families of generated LLM-style JSON (bench_malformed_json). */
typedef enum {
    FAM_CLEAN, FAM_TRAILING_COMMA, FAM_SINGLE_QUOTES, FAM_UNQUOTED_KEYS, FAM_PYTHON_LITERALS,
    FAM_COMMENTS, FAM_MISSING_COMMA, FAM_TRUNCATED, FAM_FENCED, FAM_COUNT
} bench_family;
/* The family's name ("trailing-comma", ...). */
const char *bench_family_name(bench_family f);
/* Small objects (0.2-2 KB each, `count` of them) when array_bytes is 0, else
 * one array of records of about array_bytes bytes, written in family f.
 * Deterministic: the same arguments give the same bytes. */
void bench_malformed_json(bench_inputs *out, bench_family f, size_t count, size_t array_bytes);

#endif
