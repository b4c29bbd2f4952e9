/*
 * decl.h - the check of a decoder's declaration line (compare.c): every key
 * and every name in it must be one gcconform knows. An unknown one would
 * silently narrow the comparison ("checks":["contianer"] compares nothing;
 * an unknown event is never compared; an unknown format skips every case),
 * so a typo is an error that names the nearest valid names, never a pass.
 */
#ifndef ORACLE_COMPARE_DECL_H
#define ORACLE_COMPARE_DECL_H

#include <stddef.h>

#include "oracle/compare/compare_val.h"

/* 0 when line (a {"type":"decoder",...} map) names only known keys,
 * formats, events and checks with the types docs/using-the-corpus.md gives;
 * else -1 with why (escaped for a terminal) in msg. */
int cd_check(const struct cv *line, char *msg, size_t n);

/* The names "checks" may hold, in the order of the reach bits. */
extern const char *const cd_check_names[5];

#endif
