/*
 * accept.h - accepted differences: the differences a decoder knowingly has,
 * each with a reason, read from a small line file (docs/accepted-differences.md
 * gives the format). gcoracle compare and gcoracle run let a difference through
 * when an entry accepts it, count the hits per entry, and report entries that
 * accepted nothing.
 *
 * Ownership: ac_load returns a list the caller frees with ac_free; entries are
 * borrowed from it. Errors: ac_load returns NULL after printing
 * "FILE:LINE: why" on stderr.
 */
#ifndef ORACLE_ACCEPT_H
#define ORACLE_ACCEPT_H

#include <stddef.h>
#include <stdint.h>

enum ac_kind {
	AC_NAME,          /* a field (or the event) by another name */
	AC_COMPUTED,      /* a field the decoder computes: not in the payload */
	AC_SIGNED_VIEW,   /* an unsigned field shown signed: the same bits */
	AC_ABSENT_FIELD,  /* a field another version has, printed on this one */
	AC_MISSING_FIELD, /* a field of the version the decoder does not print */
	AC_MISSING_EVENT, /* an event-version the decoder does not decode */
	AC_VALUE,         /* a value the decoder gets wrong, knowingly */
	AC_REJECTS,       /* a valid case the decoder rejects (EVENT is a case glob) */
	AC_NKINDS
};

struct ac_entry {
	enum ac_kind kind;
	char *event;      /* glob on the spec symbol (case name for AC_REJECTS) */
	char *field;      /* glob on the field name; "-" none; AC_NAME: the spec's name */
	char *alias;      /* AC_NAME of a field: the decoder's name for it, else NULL */
	char *reason;
	unsigned line;
	uint64_t hits;    /* differences accepted, over every case compared */
	uint64_t cases;   /* cases where it accepted one */
	uint64_t case_hits; /* in the case being compared (reset per case) */
};

struct ac_list {
	struct ac_entry *e;
	size_t n;
	char *path;
	char *decoder;    /* the "decoder" line, or NULL */
};

struct ac_list *ac_load(const char *path);
void ac_free(struct ac_list *l);

/* The entry of this kind accepting (event, field), or NULL; counts the hit.
 * field NULL or "-": an entry about the event itself. */
struct ac_entry *ac_accept(struct ac_list *l, enum ac_kind kind, const char *event,
			   const char *field);
/* The decoder's name for the spec's field of this event (an AC_NAME entry),
 * or NULL. */
const struct ac_entry *ac_alias(const struct ac_list *l, const char *event, const char *field);
/* Count a use of entry e (an alias); returns 1. */
int ac_hit(struct ac_list *l, const struct ac_entry *e);
/* Is name the decoder's alias of some field of event? */
int ac_is_alias(const struct ac_list *l, const char *event, const char *name);
/* Close the case being compared: per-case hits into the case counts. */
void ac_end_case(struct ac_list *l);

const char *ac_kind_name(enum ac_kind k);
/* What did not happen, for an entry that accepted nothing ("no event
 * matching GCStart_V2 was ..."), into buf; returns buf. */
const char *ac_unused_why(const struct ac_entry *e, char *buf, size_t n);

#endif
