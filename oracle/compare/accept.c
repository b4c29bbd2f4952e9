/*
 * accept.c - the accepted-differences file (accept.h): reading it, and which
 * entry accepts a difference. Entries are few (tens) and differences are
 * counted, not stored, so a linear scan per difference is enough.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/compare/accept.h"
#include "util/esc.h"

static const char *const kind_names[AC_NKINDS] = {
	"name", "computed", "signed-view", "absent-field", "missing-field", "missing-event",
	"value", "rejects"
};

#define MAGIC "gcconform-accepted-differences"

const char *ac_kind_name(enum ac_kind k)
{
	return (unsigned)k < AC_NKINDS ? kind_names[k] : "?";
}

void ac_free(struct ac_list *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++) {
		free(l->e[i].event);
		free(l->e[i].field);
		free(l->e[i].alias);
		free(l->e[i].reason);
	}
	free(l->e);
	free(l->path);
	free(l->decoder);
	free(l);
}

/* The next blank-separated word of *p (moved past it), NUL-terminated in place. */
static char *word(char **p)
{
	char *s = *p, *w;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return NULL;
	w = s;
	while (*s && *s != ' ' && *s != '\t')
		s++;
	if (*s)
		*s++ = 0;
	*p = s;
	return w;
}

static char *rest(char *p)
{
	size_t n;

	while (*p == ' ' || *p == '\t')
		p++;
	n = strlen(p);
	while (n && isspace((unsigned char)p[n - 1]))
		p[--n] = 0;
	return p;
}

static int parse_entry(struct ac_list *l, char *p, unsigned lineno, const char **why)
{
	char *kw = word(&p), *ev = word(&p), *fd = word(&p), *reason = rest(p);
	struct ac_entry e;
	char *eq;
	int k;

	memset(&e, 0, sizeof e);
	for (k = 0; k < AC_NKINDS && strcmp(kind_names[k], kw) != 0; k++)
		;
	if (k == AC_NKINDS)
		return *why = "unknown kind (name, computed, signed-view, absent-field, "
			"missing-field, missing-event, value, rejects)", -1;
	if (!ev || !fd || !*reason)
		return *why = "an entry is KIND EVENT FIELD REASON (the reason is required)", -1;
	e.kind = (enum ac_kind)k;
	eq = strchr(fd, '=');
	if ((k == AC_MISSING_EVENT || k == AC_REJECTS) && strcmp(fd, "-") != 0)
		return *why = "missing-event and rejects take no field: write -", -1;
	if (k == AC_NAME && eq && (eq == fd || !eq[1] || strchr(fd, '*')))
		return *why = "a field's name is SPECNAME=DECODERNAME, without globs", -1;
	if (k != AC_NAME && eq)
		return *why = "SPECNAME=DECODERNAME is for the name kind only", -1;
	if (k != AC_NAME && k != AC_MISSING_EVENT && k != AC_REJECTS && strcmp(fd, "-") == 0)
		return *why = "this kind needs a field (or *)", -1;
	if (eq) {
		*eq = 0;
		e.alias = strdup(eq + 1);
	}
	e.event = strdup(ev);
	e.field = strdup(fd);
	e.reason = strdup(reason);
	e.line = lineno;
	if (!e.event || !e.field || !e.reason || (eq && !e.alias)) {
		free(e.event), free(e.field), free(e.reason), free(e.alias);
		return *why = "out of memory", -1;
	}
	if (l->n % 16 == 0) {
		struct ac_entry *ne = realloc(l->e, (l->n + 16) * sizeof *ne);

		if (!ne) {
			free(e.event), free(e.field), free(e.reason), free(e.alias);
			return *why = "out of memory", -1;
		}
		l->e = ne;
	}
	l->e[l->n++] = e;
	return 0;
}

/* One line of f into buf (n bytes), its newline kept: 1, 0 at the end of
 * the file, -1 a line longer than n - 1 bytes, -2 a line holding a NUL
 * (which fgets would hide: the line would look cut there). */
static int read_line(FILE *f, char *buf, size_t n)
{
	size_t k = 0;
	int ch, nul = 0;

	while ((ch = getc(f)) != EOF) {
		if (k + 1 >= n)
			return -1;
		nul |= ch == 0;
		buf[k++] = (char)ch;
		if (ch == '\n')
			break;
	}
	buf[k] = 0;
	return nul ? -2 : k ? 1 : 0;
}

struct ac_list *ac_load(const char *path)
{
	FILE *f = fopen(path, "re");
	struct ac_list *l = NULL;
	char line[2048];
	int got;
	unsigned lineno = 0;
	int header = 0;
	const char *why = NULL;

	if (!f) {
		fprintf(stderr, "%s: %s\n", gc_esc(path), strerror(errno));
		return NULL;
	}
	if (!(l = calloc(1, sizeof *l)) || !(l->path = strdup(path))) {
		why = "out of memory";
		goto bad;
	}
	while ((got = read_line(f, line, sizeof line)) != 0) {
		char *p = line, *w;

		lineno++;
		if (got < 0) {
			why = got == -2 ? "the line holds a NUL byte" : "line longer than 2047 bytes";
			goto bad;
		}
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '#' || *p == '\n' || *p == '\r' || !*p)
			continue;
		if (!header) {
			w = word(&p);
			if (!w || strcmp(w, MAGIC) != 0 || strcmp(rest(p), "1") != 0) {
				why = "the first line must be \"" MAGIC " 1\"";
				goto bad;
			}
			header = 1;
			continue;
		}
		if (strncmp(p, "decoder", 7) == 0 && (p[7] == ' ' || p[7] == '\t')) {
			free(l->decoder);
			if (!(l->decoder = strdup(rest(p + 7)))) {
				why = "out of memory";
				goto bad;
			}
			continue;
		}
		if (parse_entry(l, p, lineno, &why) < 0)
			goto bad;
	}
	if (ferror(f)) {
		why = "read error";
		goto bad;
	}
	if (!header) {
		why = "empty: the first line must be \"" MAGIC " 1\"";
		goto bad;
	}
	fclose(f);
	return l;
bad:
	fprintf(stderr, "%s:%u: %s\n", gc_esc(path), lineno, why);
	fclose(f);
	ac_free(l);
	return NULL;
}

static int glob(const char *pat, const char *s)
{
	return fnmatch(pat, s ? s : "", 0) == 0;
}

struct ac_entry *ac_accept(struct ac_list *l, enum ac_kind kind, const char *event,
			   const char *field)
{
	if (!field)
		field = "-";
	for (size_t i = 0; l && i < l->n; i++) {
		struct ac_entry *e = &l->e[i];

		if (e->kind != kind || !glob(e->event, event))
			continue;
		if (e->alias || !glob(e->field, field))
			continue;
		e->hits++;
		e->case_hits++;
		return e;
	}
	return NULL;
}

const struct ac_entry *ac_alias(const struct ac_list *l, const char *event, const char *field)
{
	for (size_t i = 0; l && i < l->n; i++)
		if (l->e[i].alias && strcmp(l->e[i].field, field) == 0 && glob(l->e[i].event, event))
			return &l->e[i];
	return NULL;
}

int ac_hit(struct ac_list *l, const struct ac_entry *e)
{
	struct ac_entry *m = &l->e[e - l->e];

	m->hits++;
	m->case_hits++;
	return 1;
}

int ac_is_alias(const struct ac_list *l, const char *event, const char *name)
{
	for (size_t i = 0; l && i < l->n; i++)
		if (l->e[i].alias && strcmp(l->e[i].alias, name) == 0 && glob(l->e[i].event, event))
			return 1;
	return 0;
}

void ac_end_case(struct ac_list *l)
{
	for (size_t i = 0; l && i < l->n; i++) {
		l->e[i].cases += l->e[i].case_hits != 0;
		l->e[i].case_hits = 0;
	}
}

/* Says what did not happen for an entry that accepted nothing: the kind of
 * difference it is about, on the events and fields it names. */
const char *ac_unused_why(const struct ac_entry *e, char *buf, size_t n)
{
	switch (e->kind) {
	case AC_NAME:
		if (e->alias)
			snprintf(buf, n, "no event matching %s printed its field %s as %s", e->event,
				 e->field, e->alias);
		else
			snprintf(buf, n, "no event matching %s was printed under another name",
				 e->event);
		break;
	case AC_COMPUTED:
		snprintf(buf, n, "no event matching %s printed a field matching %s that no version "
			 "of the event has", e->event, e->field);
		break;
	case AC_ABSENT_FIELD:
		snprintf(buf, n, "no event matching %s printed a field matching %s that only another "
			 "version of the event has", e->event, e->field);
		break;
	case AC_MISSING_FIELD:
		snprintf(buf, n, "no event matching %s was printed without a field matching %s",
			 e->event, e->field);
		break;
	case AC_SIGNED_VIEW:
		snprintf(buf, n, "no field matching %s of an event matching %s was printed as the "
			 "signed view of its unsigned value", e->field, e->event);
		break;
	case AC_VALUE:
		snprintf(buf, n, "no field matching %s of an event matching %s was printed with a "
			 "value other than the expected one", e->field, e->event);
		break;
	case AC_MISSING_EVENT:
		snprintf(buf, n, "no event matching %s was left out or printed without its fields",
			 e->event);
		break;
	default:
		snprintf(buf, n, "the decoder rejected no valid case matching %s", e->event);
		break;
	}
	return buf;
}
