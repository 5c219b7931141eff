/* fault_alloc.h - a test allocator wrapped around malloc at link time
 * (-Wl,--wrap=malloc,...; libyaml and jansson linked statically so their
 * allocations go through it too): it can fail the Nth allocation (as jq's
 * inject_errors does) and it tracks live and peak heap bytes. */
#ifndef MALFORM_FAULT_ALLOC_H
#define MALFORM_FAULT_ALLOC_H

#include <stdbool.h>
#include <stddef.h>

/* Fail the nth allocation from now on (1-based); 0 disarms. Resets the counters. */
void fault_arm(size_t nth);
/* Allocations made since the last fault_arm. */
size_t fault_calls(void);
/* True when the armed allocation was reached and failed. */
bool fault_fired(void);
/* Heap bytes live now, and the peak since the last fault_peak_reset. */
size_t fault_live(void);
size_t fault_peak(void);
void fault_peak_reset(void);

#endif
