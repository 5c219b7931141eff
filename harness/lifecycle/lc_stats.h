/* lc_stats.h - summing campaign counters: the fuzz targets' dumps
 * (MALFORM_STATS_DIR/stats-*.json) into one run's stats.json, and the runs'
 * stats.json files into a campaign's totals. */
#ifndef MALFORM_LC_STATS_H
#define MALFORM_LC_STATS_H

#include <jansson.h>

/* Add doc's counters into acc: "execs", and the integers under
 * "rules_fired", "ops_applied" and "verdicts" (objects summed key by key,
 * at any depth). Other members of doc are ignored. */
void mf_lc_stats_add(json_t *acc, const json_t *doc);
/* mf_lc_stats_add every file under dir whose name starts with prefix and
 * ends with suffix (not temp files), descending max_depth levels but not
 * into corpus, queue, crashes or hangs directories. Returns the files summed. */
int mf_lc_stats_sum_dir(json_t *acc, const char *dir, const char *prefix, const char *suffix, int max_depth);

#endif
