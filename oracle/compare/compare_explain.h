/*
 * compare_explain.h - what a failing case is about, in words: the case's
 * class, fault, description and the diagnostics it must raise where, from
 * its expectation (docs/corpus.cddl), so that a failure names the fault
 * without a look into index.json.
 */
#ifndef ORACLE_COMPARE_EXPLAIN_H
#define ORACLE_COMPARE_EXPLAIN_H

#include <stddef.h>

#include "oracle/compare/compare_val.h"

/* One line (no newline) about the case ecase (a gcconform-corpus-case) into
 * buf: "n_, must be rejected: fault F (reach R): DESCRIPTION; must raise
 * GC-N010 (error) at byte 1568". Returns buf. */
const char *ce_case(char *buf, size_t n, const struct cv *ecase);

#endif
