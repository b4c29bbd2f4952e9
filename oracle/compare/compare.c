/*
 * compare.c - gcoracle compare EXPECTED ACTUAL (see compare.h).
 *
 * EXPECTED is a corpus case (corpus/expect/NAME.cbor, which names its
 * events file); ACTUAL is a decoder's JSON lines (a file or -):
 *
 *   {"type":"decoder","name":...,"formats":[...],"events":[...],
 *    "checks":["container","payload","value","stream","unknown"],"codes":bool}
 *       optional, first: what the decoder supports; absent = everything,
 *       with gcconform diagnostic codes (what gcoracle does)
 *   {"type":"event","index":N,"name":...,"provider":...,"id":I,"version":V,
 *    "timestamp":T,"thread":TID,"fields":{...}}      gcoracle --json's shape
 *   {"type":"diag","code":...,"severity":...,"event":N,"offset":O,...}
 *   {"type":"error","message":...}                    a rejection, no code
 *   {"type":"summary"|"case"|"expect",...}            ignored (the last two are
 *                                                     what --print writes)
 *
 * Events are matched by "index" (the 0-based position of the event record
 * in the file), or by their order when the decoder gives none; an event
 * left out or added before the rest is found as a shift (compare_shift.h). Event
 * differences are held back until the diagnostics are known, because an
 * i_ case the decoder rejected is not compared event by event.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/compare/accept.h"
#include "oracle/compare/compare.h"
#include "oracle/compare/compare_explain.h"
#include "oracle/compare/compare_group.h"
#include "oracle/compare/compare_locate.h"
#include "oracle/compare/compare_shift.h"
#include "oracle/compare/decl.h"
#include "oracle/diag.h"
#include "oracle/output/output.h"
#include "util/esc.h"

#define MAX_SHOWN 40          /* differences printed per case by default; all are counted */
#define SHOWN_GROUPS 20       /* kinds of difference listed after the first --max */
#define RESULT_GROUPS 5       /* kinds in or_compare_result.groups (gcoracle run's screen) */
/* What a case can need bounds what is read: one event of at most 64 KiB
 * of payload is a JSON line of about a MiB at worst (a byte per field,
 * every field named); the largest corpus case file is about 300 KiB. A
 * longer line or file is refused before it is built into a tree. */
#define MAX_LINE (4u << 20)        /* longest decoder output line read */
#define MAX_CASE_FILE (16u << 20)  /* largest case or events file read */

enum reach { R_CONTAINER = 1, R_PAYLOAD = 2, R_VALUE = 4, R_STREAM = 8, R_UNKNOWN = 16,
	     R_ALL = 31 };
/* The names of the reaches in a declaration's "checks", bit by bit, are
 * decl.h's cd_check_names. */

struct decl {
	int given;
	char name[64];
	struct cv *formats, *events;  /* NULL: all */
	unsigned checks;
	int codes;
};

struct adiag {                /* a diagnostic the decoder reported */
	char code[16];            /* "" without a code */
	int error;
	int has_event, has_offset, has_file;
	uint64_t event, offset;
	/* Directory containers (CTF): the file of the trace and the offset in
	 * it, which is what expectations of those containers give. */
	char file[64];
	uint64_t file_offset;
	char msg[160];            /* the decoder's message, escaped; "" without one */
};

struct held {                 /* a difference, printed after the verdict */
	unsigned code;
	int kind;                 /* the enum ac_kind that would accept it, or -1 */
	uint64_t event;
	char field[64];
	char msg[400];
};

struct cmp {
	const char *case_name, *cls, *format;
	struct cv *ecase, *edoc;
	const struct cv *events, *ediags;
	char trace[4096];          /* the case's trace file, to locate differences in */
	struct decl d;
	int json, quiet, all_events;
	unsigned max;              /* differences printed in text mode; 0: all */
	struct ac_list *ac;        /* accepted differences, or NULL */
	FILE *out;
	/* the decoder's output */
	uint8_t *seen;             /* per expected event */
	uint64_t ordinal, nactual, compared, fields, unsupported_events;
	uint32_t unsupported[GCSPEC_NEVENTS + 1];
	int no_ts, no_thread, no_process, no_provider;
	struct adiag *ad;
	size_t nad, capad;
	FILE *held;                /* event differences until the verdict (a temporary file,
				      so that memory stays flat however many there are) */
	uint64_t differences, notes, held_total, held_lost, shown, accepted;
	/* For the explanation of a failure (compare_explain.h): the event the
	 * case's first required diagnostic is at, what the decoder printed
	 * for it, the last event it printed, whether a required one was missed. */
	uint64_t target, last_idx, last_off;
	/* Index shifts (compare_shift.h): the file's event for the decoder's
	 * index i is i + shift; an event that did not fit is held back. */
	int64_t shift;
	struct cv *pending;
	uint64_t pending_at, pending_idx;
	char target_got[240], last_name[64];
	int missed;
	struct cg_list groups;     /* every difference, by kind */
	int more_said;             /* the "... and N more" line is printed */
	int not_json;              /* the output is not JSON lines at all */
	int rejection_accepted;
	char decl_error[400];      /* the declaration names what is not known */
	struct or_diag_sink sink;
};

/* --- reporting -------------------------------------------------------------- */

/* Text from the decoder, made safe for a terminal: control bytes and DEL as
 * \xNN (UTF-8 above them passes). */
static const char *safe(char *buf, size_t n, const char *s)
{
	size_t k = 0;

	for (; s && *s && k + 5 < n; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch < 0x20 || ch == 0x7f)
			k += (size_t)snprintf(buf + k, n - k, "\\x%02x", ch);
		else
			buf[k++] = (char)ch;
	}
	if (s && *s && n > 4) {
		k = k + 4 > n ? n - 4 : k;
		memcpy(buf + k, "...", 3);
		k += 3;
	}
	buf[k] = 0;
	return buf;
}

static void emit(struct cmp *c, unsigned code, uint64_t event, int kind, const char *field,
		 const char *msg)
{
	const struct cv *ev = event != OR_NO_EVENT && c->events && event < c->events->n
		? &c->events->item[event] : NULL;
	const char *name = cv_text(cv_get(ev, "name"), "");

	if (c->json) {
		fputs("{\"type\":\"diag\",\"case\":", c->out);
		cf_json_string(c->out, c->case_name, strlen(c->case_name));
		fprintf(c->out, ",\"code\":\"%s\",\"severity\":\"%s\",\"event\":", gcspec_diags[code].code,
			or_severity_name(gcspec_diags[code].severity));
		if (event == OR_NO_EVENT)
			fputs("null", c->out);
		else
			fprintf(c->out, "%" PRIu64, event);
		fputs(",\"name\":", c->out);
		cf_json_string(c->out, name, strlen(name));
		fputs(",\"message\":", c->out);
		cf_json_string(c->out, msg, strlen(msg));
		if (kind >= 0) {
			/* The accepted-differences entry that would let it through. */
			fprintf(c->out, ",\"accept\":{\"kind\":\"%s\",\"field\":",
				ac_kind_name((enum ac_kind)kind));
			cf_json_string(c->out, field, strlen(field));
			fputc('}', c->out);
		}
		fputs("}\n", c->out);
	} else if (!c->quiet || gcspec_diags[code].severity == GCSPEC_ERROR) {
		/* The message quotes the decoder's output: escaped for a terminal. */
		or_text_put(c->out, c->case_name);
		fprintf(c->out, ": %s %s: ", gcspec_diags[code].code,
			or_severity_name(gcspec_diags[code].severity));
		if (event != OR_NO_EVENT) {
			fprintf(c->out, "event %" PRIu64, event);
			if (*name) {
				fputs(" (", c->out);
				or_text_put(c->out, name);
				fputc(')', c->out);
			}
			fputs(": ", c->out);
		}
		or_text_put(c->out, msg);
		fputc('\n', c->out);
	}
}

/* A diagnostic: counted always; an error printed while fewer than --max have
 * been (all of them with --json or --max 0). */
static void vput(struct cmp *c, unsigned code, uint64_t event, int kind, const char *field,
		 const char *fmt, va_list ap)
{
	char msg[600];
	const struct cv *ev = event != OR_NO_EVENT && c->events && event < c->events->n
		? &c->events->item[event] : NULL;
	const char *name = cv_text(cv_get(ev, "name"), "");

	vsnprintf(msg, sizeof msg, fmt, ap);
	if (gcspec_diags[code].severity == GCSPEC_ERROR)
		c->differences++;
	else
		c->notes++;
	or_report_to(&c->sink, code, event, 0, *name ? name : NULL, "%s", msg);
	if (gcspec_diags[code].severity == GCSPEC_ERROR) {
		char sbuf[sizeof c->groups.g[0].example + 8];

		cg_add(&c->groups, code, name, field, event, safe(sbuf, sizeof sbuf, msg));
		if (!c->json && c->max && c->shown >= c->max)
			return;
		c->shown++;
	}
	emit(c, code, event, kind, field, msg);
}

static void put(struct cmp *c, unsigned code, uint64_t event, const char *fmt, ...)
	OR_PRINTF(4, 5);

static void put(struct cmp *c, unsigned code, uint64_t event, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vput(c, code, event, -1, "", fmt, ap);
	va_end(ap);
}

/* A difference an accepted-differences entry of this kind could accept. */
static void put_k(struct cmp *c, unsigned code, uint64_t event, int kind, const char *field,
		  const char *fmt, ...) OR_PRINTF(6, 7);

static void put_k(struct cmp *c, unsigned code, uint64_t event, int kind, const char *field,
		  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vput(c, code, event, kind, field, fmt, ap);
	va_end(ap);
}

/* Is this difference one the accepted-differences file lists? */
static int accepted(struct cmp *c, enum ac_kind kind, const char *event, const char *field)
{
	if (!c->ac || !ac_accept(c->ac, kind, event, field))
		return 0;
	c->accepted++;
	return 1;
}

/* An event difference, held until the verdict on rejection is known; kind
 * and field: the accepted-differences entry that would accept it (kind -1:
 * none can). */
static void hold(struct cmp *c, unsigned code, uint64_t event, int kind, const char *field,
		 const char *fmt, ...) OR_PRINTF(6, 7);

static void hold(struct cmp *c, unsigned code, uint64_t event, int kind, const char *field,
		 const char *fmt, ...)
{
	struct held h;
	va_list ap;

	c->held_total++;
	memset(&h, 0, sizeof h);
	h.code = code;
	h.kind = kind;
	h.event = event;
	snprintf(h.field, sizeof h.field, "%s", field);
	va_start(ap, fmt);
	vsnprintf(h.msg, sizeof h.msg, fmt, ap);
	va_end(ap);
	if (!c->held) {
		if (!(c->held = tmpfile())) {
			c->held_lost++;
			return;
		}
		/* gcoracle run starts decoders while it compares: not theirs. */
		fcntl(fileno(c->held), F_SETFD, FD_CLOEXEC);
	}
	if (fwrite(&h, sizeof h, 1, c->held) != 1)
		c->held_lost++;
}

/* --- the expectation -------------------------------------------------------- */

static uint8_t *read_all(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rbe");
	uint8_t *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		return NULL;
	do {
		if (n == cap) {
			uint8_t *b = cap >= MAX_CASE_FILE ? NULL : realloc(buf, cap = cap ? cap * 2 : 65536);

			if (!b) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = b;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got);
	if (buf && ferror(f)) {
		free(buf);
		buf = NULL;
	}
	if (f != stdin)
		fclose(f);
	*len = n;
	return buf;
}

static struct cv *load_cbor(const char *path, const char *schema)
{
	size_t len, pos = 0;
	uint8_t *buf = read_all(path, &len);
	char err[200];
	struct cv *v;

	if (!buf) {
		fprintf(stderr, "gcoracle compare: %s: cannot read\n", gc_esc(path));
		return NULL;
	}
	v = cv_parse_cbor(buf, len, &pos, err, sizeof err);
	free(buf);
	if (!v) {
		fprintf(stderr, "gcoracle compare: %s: %s\n", gc_esc(path), err);
		return NULL;
	}
	if (pos != len || strcmp(cv_text(cv_get(v, "schema"), ""), schema) != 0 ||
	    cv_uint(cv_get(v, "version"), 0) != 1) {
		fprintf(stderr, "gcoracle compare: %s: not a %s version 1 file\n", gc_esc(path), schema);
		cv_free(v);
		return NULL;
	}
	return v;
}

/* The case and its events (the events file is named relative to the corpus
 * root: the directory above the case's expect/ directory, or --corpus). */
static int load_case(struct cmp *c, const char *path, const char *root)
{
	const char *events;

	if (!(c->ecase = load_cbor(path, "gcconform-corpus-case")))
		return -1;
	c->case_name = cv_text(cv_get(c->ecase, "name"), "?");
	c->cls = cv_text(cv_get(c->ecase, "class"), "?");
	c->format = cv_text(cv_get(c->ecase, "format"), "");
	c->ediags = cv_get(c->ecase, "diagnostics");
	events = cv_text(cv_get(c->ecase, "events"), NULL);
	{
		const char *file = cv_text(cv_get(c->ecase, "file"), "");
		const char *slash = strrchr(path, '/');
		int dir = slash ? (int)(slash - path) : 0;

		if (root)
			snprintf(c->trace, sizeof c->trace, "%s/%s", root, file);
		else
			snprintf(c->trace, sizeof c->trace, "%.*s%s../%s", dir, path, slash ? "/" : "",
				 file);
	}
	if (events) {
		char full[4096];

		if (root) {
			snprintf(full, sizeof full, "%s/%s", root, events);
		} else {
			const char *slash = strrchr(path, '/');
			int dir = slash ? (int)(slash - path) : 0;

			/* path is ROOT/expect/NAME.cbor */
			snprintf(full, sizeof full, "%.*s%s../%s", dir, path, slash ? "/" : "", events);
		}
		if (!(c->edoc = load_cbor(full, "gcconform-corpus-events")))
			return -1;
		c->events = cv_get(c->edoc, "events");
		if (!c->events || c->events->kind != CV_ARRAY) {
			fprintf(stderr, "gcoracle compare: %s: no events array\n", full);
			return -1;
		}
		if (!(c->seen = calloc(c->events->n + 1, 1)))
			return -1;
	}
	return 0;
}

/* --- what the decoder declares ----------------------------------------------- */

static const struct gcspec_event *spec_of(const char *symbol)
{
	for (unsigned i = 0; *symbol && i < GCSPEC_NEVENTS; i++)
		if (strcmp(gcspec_events[i].symbol, symbol) == 0)
			return &gcspec_events[i];
	return NULL;
}

static int supports_event(const struct cmp *c, const char *symbol)
{
	const struct gcspec_event *sp;

	if (!c->d.events)
		return 1;
	sp = spec_of(symbol);
	return sp && (cv_array_has(c->d.events, sp->symbol) || cv_array_has(c->d.events, sp->name));
}

/* A decoder of "nettrace-v5" reads nettrace-v5-full too: a format entry
 * names the format, its container ("nettrace") or container-vN. */
static int supports_format(const struct cmp *c)
{
	char cv[64];

	if (!c->d.formats)
		return 1;
	snprintf(cv, sizeof cv, "%s-v%" PRIu64, cv_text(cv_get(c->ecase, "container"), ""),
		 cv_uint(cv_get(c->ecase, "container_version"), 0));
	return cv_array_has(c->d.formats, c->format) ||
	       cv_array_has(c->d.formats, cv_text(cv_get(c->ecase, "container"), "")) ||
	       cv_array_has(c->d.formats, cv);
}

static unsigned reach_of(const char *code)
{
	if (strncmp(code, "GC-", 3) != 0 || !code[3] || code[3] == '*')
		return R_ALL;
	switch (code[3]) {
	case 'P': return R_PAYLOAD;
	case 'V': return R_VALUE;
	case 'S': return R_STREAM;
	case 'U': return R_UNKNOWN;
	case 'K': return 0;
	default: return R_CONTAINER;
	}
}

static int take_decl(struct cmp *c, struct cv *line)
{
	const char *const *names = cd_check_names;
	const struct cv *checks = cv_get(line, "checks"), *codes = cv_get(line, "codes");
	const struct cv *f = cv_get(line, "formats"), *e = cv_get(line, "events");

	if (c->d.given || c->nactual) {
		put(c, GCSPEC_DIAG_K012, OR_NO_EVENT,
		    "the \"decoder\" line must come first, and once");
		return 0;
	}
	c->d.given = 1;
	if (cd_check(line, c->decl_error, sizeof c->decl_error) < 0)
		return -2;
	snprintf(c->d.name, sizeof c->d.name, "%s", cv_text(cv_get(line, "name"), "decoder"));
	if (checks && checks->kind == CV_ARRAY) {
		c->d.checks = 0;
		for (unsigned i = 0; i < 5; i++)
			if (cv_array_has(checks, names[i]))
				c->d.checks |= 1u << i;
	}
	if (codes && codes->kind == CV_BOOL)
		c->d.codes = (int)codes->u;
	/* Keep the lists: detach them from the line that is about to be freed. */
	for (size_t i = 0; i < line->n; i++) {
		struct cv *v = &line->item[2 * i + 1];

		if ((v == f || v == e) && v->kind == CV_ARRAY) {
			struct cv *copy = malloc(sizeof *copy);

			if (!copy)
				return -1;
			*copy = *v;
			v->kind = CV_NULL;
			v->item = NULL;
			v->n = 0;
			if (v == f)
				c->d.formats = copy;
			else
				c->d.events = copy;
		}
	}
	return 0;
}

static ssize_t read_line(FILE *in, char **line, size_t *cap, int *too_long);

char *or_compare_decl_line(FILE *in)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int too_long;
	struct cv *v = NULL;
	char err[8];

	while ((n = read_line(in, &line, &cap, &too_long)) == 0)
		;
	if (n > 0 && !too_long && (v = cv_parse_json(line, (size_t)n, err, sizeof err)) &&
	    strcmp(cv_text(cv_get(v, "type"), ""), "decoder") == 0) {
		line[n] = 0; /* read_line leaves room for it */
		cv_free(v);
		return line;
	}
	cv_free(v);
	free(line);
	return NULL;
}

int or_compare_declared_skip(const char *expected, const char *decl_line)
{
	struct cmp *c = calloc(1, sizeof *c);
	struct cv *v = NULL;
	char err[8];
	int skip = 0;

	if (!c)
		return 0;
	c->out = stderr;
	c->d.checks = R_ALL;
	or_diag_init(&c->sink);
	if ((c->ecase = load_cbor(expected, "gcconform-corpus-case")) &&
	    (v = cv_parse_json(decl_line, strlen(decl_line), err, sizeof err)) &&
	    v->kind == CV_MAP && take_decl(c, v) == 0) {
		c->format = cv_text(cv_get(c->ecase, "format"), "");
		skip = !supports_format(c);
	}
	cv_free(v);
	cv_free(c->ecase);
	cv_free(c->d.formats);
	cv_free(c->d.events);
	free(c);
	return skip;
}

/* --- events -------------------------------------------------------------------- */

/* The width in bits of field f's unsigned value on the wire (a pointer:
 * the case's pointer size), or 0 when it has no signed view. */
static unsigned wire_bits(const struct cmp *c, const struct gcspec_field *f)
{
	switch (f->type) {
	case GCSPEC_UINT8: return 8;
	case GCSPEC_UINT16: return 16;
	case GCSPEC_UINT32: case GCSPEC_BOOLEAN: return 32;
	case GCSPEC_UINT64: return 64;
	case GCSPEC_POINTER: return cv_uint(cv_get(c->ecase, "pointer_size"), 8) == 4 ? 32 : 64;
	default: return 0;
	}
}

/* Is a the signed view of the unsigned e in field f: the two's-complement
 * reading of f's own width, so only an e with its top bit set has one, and
 * it is e - 2^w (UInt16 0xFFFF: -1; UInt32 0: none)? */
static int signed_view(const struct cmp *c, const struct gcspec_field *f, const struct cv *e,
		       const struct cv *a)
{
	unsigned w;

	if (e->kind != CV_UINT || a->kind != CV_NEG || !(w = wire_bits(c, f)))
		return 0;
	if ((w < 64 && e->u >> w) || !(e->u >> (w - 1) & 1))
		return 0;
	/* a is -1 - a->u: e + |a| = e + a->u + 1 must be 2^w (0 modulo 2^64). */
	return w == 64 ? e->u + a->u + 1 == 0 : e->u + a->u + 1 == 1ull << w;
}

/* Does any version of this event (same base name) define a field so named? */
static int field_of_other_version(const struct gcspec_event *sp, const char *name)
{
	for (unsigned i = 0; i < GCSPEC_NEVENTS; i++) {
		const struct gcspec_event *o = &gcspec_events[i];
		const struct gcspec_field *f = gcspec_event_fields(o);

		if (o == sp || strcmp(o->name, sp->name) != 0)
			continue;
		for (unsigned j = 0; j < o->nfields; j++)
			if (!f[j].is_member && strcmp(f[j].name, name) == 0)
				return 1;
	}
	return 0;
}

static void compare_fields(struct cmp *c, uint64_t idx, const struct gcspec_event *sp,
			   const struct cv *ef, const struct cv *af)
{
	const struct gcspec_field *f = gcspec_event_fields(sp);
	const char *sym = sp->symbol;
	char ebuf[160], abuf[160], kbuf[100];

	/* "fields":{} on an event-version that has fields is no fields at all,
	 * as much as leaving "fields" out: one difference, which a missing-event
	 * entry accepts, not one per field. */
	if (!af || af->kind != CV_MAP || (af->n == 0 && ef && ef->kind == CV_MAP && ef->n)) {
		if (!accepted(c, AC_MISSING_EVENT, sym, NULL))
			hold(c, GCSPEC_DIAG_K005, idx, AC_MISSING_EVENT, "-", "no fields: the event-version is supported but "
			     "its fields were not printed");
		return;
	}
	for (unsigned i = 0; i < sp->nfields; i++) {
		const struct cv *e, *a;
		const struct ac_entry *alias = NULL;
		char shown[140];

		if (f[i].is_member || !(e = cv_get(ef, f[i].name)))
			continue;
		c->fields++;
		if (!(a = cv_get(af, f[i].name)) && c->ac &&
		    (alias = ac_alias(c->ac, sym, f[i].name)) && (a = cv_get(af, alias->alias)))
			c->accepted += ac_hit(c->ac, alias);
		if (alias && a)
			snprintf(shown, sizeof shown, "%s (printed as %s)", f[i].name, alias->alias);
		else
			snprintf(shown, sizeof shown, "%s", f[i].name);
		if (!a) {
			if (!accepted(c, AC_MISSING_FIELD, sym, f[i].name))
				hold(c, GCSPEC_DIAG_K005, idx, AC_MISSING_FIELD, f[i].name,
				     "field %s is missing (expected %s)", f[i].name,
				     cf_text(ebuf, sizeof ebuf, &f[i], e));
			continue;
		}
		if (f[i].type != GCSPEC_STRUCT) {
			int kind = signed_view(c, &f[i], e, a) ? AC_SIGNED_VIEW : AC_VALUE;

			if (cf_same(&f[i], e, a) || accepted(c, kind, sym, f[i].name))
				continue;
			hold(c, GCSPEC_DIAG_K004, idx, kind, f[i].name, "field %s: expected %s, got %s", shown,
			     cf_text(ebuf, sizeof ebuf, &f[i], e), cf_text(abuf, sizeof abuf, NULL, a));
			continue;
		}
		if (e->kind != CV_ARRAY || a->kind != CV_ARRAY || e->n != a->n) {
			if (accepted(c, AC_VALUE, sym, f[i].name))
				continue;
			if (a->kind == CV_ARRAY)
				snprintf(abuf, sizeof abuf, "%zu", a->n);
			hold(c, GCSPEC_DIAG_K004, idx, AC_VALUE, f[i].name,
			     "field %s: expected %zu elements, got %s",
			     shown, e->kind == CV_ARRAY ? e->n : 0,
			     a->kind == CV_ARRAY ? abuf : "no array");
			continue;
		}
		for (size_t r = 0; r < e->n; r++)
			for (unsigned k = 1; k <= f[i].nmembers; k++) {
				const struct cv *em = cv_get(&e->item[r], f[i + k].name);
				const struct cv *am = cv_get(&a->item[r], f[i + k].name);

				if (!em)
					continue;
				if (!am) {
					if (!accepted(c, AC_MISSING_FIELD, sym, f[i].name))
						hold(c, GCSPEC_DIAG_K005, idx, AC_MISSING_FIELD,
						     f[i].name, "field %s[%zu].%s is missing",
						     shown, r, f[i + k].name);
				} else if (!cf_same(&f[i + k], em, am) &&
					   !accepted(c, signed_view(c, &f[i + k], em, am) ? AC_SIGNED_VIEW : AC_VALUE, sym,
						     f[i].name)) {
					hold(c, GCSPEC_DIAG_K004, idx,
					     signed_view(c, &f[i + k], em, am) ? AC_SIGNED_VIEW : AC_VALUE, f[i].name,
					     "field %s[%zu].%s: expected %s, got %s",
					     shown, r, f[i + k].name,
					     cf_text(ebuf, sizeof ebuf, &f[i + k], em),
					     cf_text(abuf, sizeof abuf, NULL, am));
				}
			}
	}
	for (size_t i = 0; i < af->n; i++) {
		const char *k = cv_text(&af->item[2 * i], "");
		int known = 0, kind;

		for (unsigned j = 0; j < sp->nfields && !known; j++)
			known = !f[j].is_member && strcmp(f[j].name, k) == 0;
		if (known || (c->ac && ac_is_alias(c->ac, sym, k)))
			continue;
		kind = field_of_other_version(sp, k) ? AC_ABSENT_FIELD : AC_COMPUTED;
		if (accepted(c, kind, sym, k))
			continue;
		hold(c, GCSPEC_DIAG_K006, idx, kind, safe(kbuf, sizeof kbuf, k),
		     "field %s is not a field of %s",
		     safe(kbuf, sizeof kbuf, k), sym);
	}
}

static void header_uint(struct cmp *c, uint64_t idx, const struct cv *e, const struct cv *a,
			const char *key, int *not_given)
{
	const struct cv *ev = cv_get(e, key), *av = cv_get(a, key);

	if (!av) {
		if (not_given)
			*not_given = 1;
		return;
	}
	if (!ev || !cf_same(NULL, ev, av)) {
		char eb[64], ab[64];

		hold(c, GCSPEC_DIAG_K003, idx, -1, "", "%s: expected %s, got %s", key,
		     ev ? cf_text(eb, sizeof eb, NULL, ev) : "none", cf_text(ab, sizeof ab, NULL, av));
	}
}

/* The event's process, a difference of its own (GC-K022): a decoder that
 * mixes up the processes of a machine-wide trace gets each event's fields
 * right. An expectation without one (a corpus from before events named
 * their process) compares nothing. */
static void compare_process(struct cmp *c, uint64_t idx, const struct cv *e, const struct cv *a)
{
	const struct cv *ev = cv_get(e, "process"), *av = cv_get(a, "process");
	char eb[64], ab[64];

	if (!av) {
		c->no_process = 1;
		return;
	}
	if (ev && !cf_same(NULL, ev, av))
		hold(c, GCSPEC_DIAG_K022, idx, -1, "", "process: expected %s, got %s",
		     cf_text(eb, sizeof eb, NULL, ev), cf_text(ab, sizeof ab, NULL, av));
}

/* An event line as "NAME {fields}", cut to n bytes, safe for a terminal. */
static const char *said_event(char *buf, size_t n, const struct cv *a)
{
	char fields[200] = "(no fields)", both[280];

	if (cv_get(a, "fields"))
		cf_text(fields, sizeof fields, NULL, cv_get(a, "fields"));
	snprintf(both, sizeof both, "%s %s", cv_text(cv_get(a, "name"), "(no name)"), fields);
	return safe(buf, n, both);
}

/* The decoder's event a as the file's event idx. */
static void compare_at(struct cmp *c, const struct cv *a, uint64_t idx)
{
	const struct cv *e;
	const char *ename, *aname;
	const struct gcspec_event *sp;
	int supported;
	char sbuf[120];

	if (idx == c->target && !c->target_got[0])
		said_event(c->target_got, sizeof c->target_got, a);
	if (idx >= c->events->n) {
		hold(c, GCSPEC_DIAG_K002, idx, -1, "", "the case holds %zu events; this one is extra",
		     c->events->n);
		return;
	}
	if (c->seen[idx]) {
		hold(c, GCSPEC_DIAG_K002, idx, -1, "", "printed twice");
		return;
	}
	c->seen[idx] = 1;
	e = &c->events->item[idx];
	ename = cv_text(cv_get(e, "name"), "");
	sp = spec_of(ename);
	supported = supports_event(c, ename);
	header_uint(c, idx, e, a, "id", NULL);
	header_uint(c, idx, e, a, "version", NULL);
	header_uint(c, idx, e, a, "timestamp", &c->no_ts);
	header_uint(c, idx, e, a, "thread", &c->no_thread);
	compare_process(c, idx, e, a);
	if (!cv_get(a, "provider"))
		c->no_provider = 1;
	else if (strcmp(cv_text(cv_get(a, "provider"), ""), cv_text(cv_get(e, "provider"), "")))
		hold(c, GCSPEC_DIAG_K003, idx, -1, "", "provider: expected %s, got %s",
		     cv_text(cv_get(e, "provider"), ""),
		     safe(sbuf, sizeof sbuf, cv_text(cv_get(a, "provider"), "(not text)")));
	aname = cv_text(cv_get(a, "name"), NULL);
	if (aname && *ename && supported && strcmp(aname, ename) != 0 &&
	    !accepted(c, AC_NAME, ename, NULL))
		hold(c, GCSPEC_DIAG_K003, idx, AC_NAME, "-", "name: expected %s, got \"%s\"", ename,
		     safe(sbuf, sizeof sbuf, aname));
	if (!supported) {
		c->unsupported[sp ? sp - gcspec_events : GCSPEC_NEVENTS]++;
		c->unsupported_events++;
		return;
	}
	c->compared++;
	if (sp && cv_get(e, "fields"))
		compare_fields(c, idx, sp, cv_get(e, "fields"), cv_get(a, "fields"));
}

/* The file's events [from, from + k) are not in the decoder's output and
 * its later events are k places off: one difference, for the events it
 * had to print (compare_shift.h). */
static void missing_run(struct cmp *c, uint64_t from, unsigned k)
{
	unsigned owed = 0;
	uint64_t first = OR_NO_EVENT;

	for (uint64_t i = from; i < from + k; i++) {
		const char *name = cv_text(cv_get(&c->events->item[i], "name"), "");

		if (c->seen[i] || !supports_event(c, name))
			continue; /* counted as unsupported in the verdict */
		c->seen[i] = 1;
		if (accepted(c, AC_MISSING_EVENT, name, NULL))
			continue;
		owed++;
		if (first == OR_NO_EVENT)
			first = i;
	}
	if (!owed)
		return;
	if (k == 1)
		hold(c, GCSPEC_DIAG_K001, first, AC_MISSING_EVENT, "-", "missing event at index %"
		     PRIu64 " (shifted by one): the decoder's later events are compared with the "
		     "file's next ones", first);
	else
		hold(c, GCSPEC_DIAG_K001, first, AC_MISSING_EVENT, "-", "missing events at index %"
		     PRIu64 " to %" PRIu64 " (shifted by %u): the decoder's later events are "
		     "compared with the file's %u places on", from, from + k - 1, k, k);
}

/* Where the file's event for the decoder's index idx is, after the shifts
 * found so far; OR_NO_EVENT before the start. */
static uint64_t shifted(const struct cmp *c, uint64_t idx)
{
	return c->shift < 0 && idx < (uint64_t)-c->shift ? OR_NO_EVENT : idx + (uint64_t)c->shift;
}

/* The event held back because it did not fit its place, now that the next
 * one (a, for the file's event ae) is known: a run of missing events before
 * it, an extra event, or neither (it is compared where it is). */
static void settle_pending(struct cmp *c, const struct cv *a, uint64_t idx)
{
	struct cv *p = c->pending;
	uint64_t pe = c->pending_at, ae = shifted(c, idx), n = c->events->n;
	unsigned k = 0;

	c->pending = NULL;
	if (a && pe < n && ae < n)
		k = cs_missing(c->events, pe, p, ae, a);
	if (k) {
		missing_run(c, pe, k);
		c->shift += k;
		compare_at(c, p, pe + k);
	} else if (a && pe < n && !c->seen[pe] && cs_same(&c->events->item[pe], a)) {
		char sbuf[80];

		hold(c, GCSPEC_DIAG_K002, OR_NO_EVENT, -1, "", "extra event at index %" PRIu64
		     " (shifted by one): the decoder's %s is not in the file there; its later "
		     "events are compared with the file's from index %" PRIu64, c->pending_idx,
		     safe(sbuf, sizeof sbuf, cv_text(cv_get(p, "name"), "(no name)")), pe);
		c->shift = (int64_t)pe - (int64_t)idx;
	} else if (pe != OR_NO_EVENT) {
		compare_at(c, p, pe);
	} else {
		hold(c, GCSPEC_DIAG_K002, OR_NO_EVENT, -1, "", "extra event at index %" PRIu64
		     " (before the file's first)", c->pending_idx);
	}
	cv_free(p);
}

/* Returns 1 when it keeps a (held back until the next event says where it
 * belongs), 0 when the caller may free it. */
static int take_event(struct cmp *c, struct cv *a)
{
	const struct cv *ix = cv_get(a, "index");
	uint64_t idx = ix && ix->kind == CV_UINT ? ix->u : c->ordinal, at;

	c->ordinal++;
	c->nactual++;
	if (!cv_get(a, "id") || !cv_get(a, "version") || (ix && ix->kind != CV_UINT)) {
		put(c, GCSPEC_DIAG_K012, OR_NO_EVENT, "an event line needs numbers \"id\" and "
		    "\"version\" (and \"index\", when given, a number)");
		return 0;
	}
	c->last_idx = idx;
	safe(c->last_name, sizeof c->last_name, cv_text(cv_get(a, "name"), "(no name)"));
	c->last_off = cv_get(a, "offset") && cv_get(a, "offset")->kind == CV_UINT
		? cv_get(a, "offset")->u : OR_NO_EVENT;
	if (!c->events)
		return 0; /* the case's events are not compared */
	if (c->pending)
		settle_pending(c, a, idx);
	at = shifted(c, idx);
	if (at < c->events->n && !c->seen[at] && cs_same(&c->events->item[at], a)) {
		compare_at(c, a, at);
		return 0;
	}
	c->pending = a;
	c->pending_at = at;
	c->pending_idx = idx;
	return 1;
}

/* --- diagnostics ------------------------------------------------------------------ */

/* Is this "diag" or "error" line an error? The severity printed wins;
 * else the catalogue's; else (no code, or one the catalogue lacks) it is. */
static int line_is_error(const struct cv *a, int is_error_line)
{
	const char *code = cv_text(cv_get(a, "code"), "");
	const char *sev = cv_text(cv_get(a, "severity"), NULL);
	int k = *code ? or_diag_lookup(code) : -1;

	return is_error_line || (sev ? strcmp(sev, "error") == 0
				 : k >= 0 ? gcspec_diags[k].severity == GCSPEC_ERROR : 1);
}

static void take_diag(struct cmp *c, const struct cv *a, int is_error_line)
{
	const char *code = cv_text(cv_get(a, "code"), "");
	const struct cv *ev = cv_get(a, "event"), *off = cv_get(a, "offset");
	struct adiag *d;

	if (c->nad == c->capad) {
		size_t cap = c->capad ? c->capad * 2 : 64;
		struct adiag *n = c->nad >= 100000 ? NULL : realloc(c->ad, cap * sizeof *n);

		if (!n)
			return;
		c->ad = n;
		c->capad = cap;
	}
	d = &c->ad[c->nad++];
	memset(d, 0, sizeof *d);
	snprintf(d->code, sizeof d->code, "%s", code);
	d->error = line_is_error(a, is_error_line);
	if (ev && ev->kind == CV_UINT) {
		d->has_event = 1;
		d->event = ev->u;
	}
	if (off && off->kind == CV_UINT) {
		d->has_offset = 1;
		d->offset = off->u;
	}
	if (cv_text(cv_get(a, "file"), NULL) && cv_get(a, "file_offset") &&
	    cv_get(a, "file_offset")->kind == CV_UINT) {
		d->has_file = 1;
		snprintf(d->file, sizeof d->file, "%s", cv_text(cv_get(a, "file"), ""));
		d->file_offset = cv_get(a, "file_offset")->u;
	}
	safe(d->msg, sizeof d->msg, cv_text(cv_get(a, "message"), ""));
}

static int code_matches(const char *want, const char *got)
{
	size_t n = strlen(want);

	if (n && want[n - 1] == '*')
		return strncmp(want, got, n - 1) == 0;
	return strcmp(want, got) == 0;
}

static int place_matches(const struct cv *w, const struct adiag *d)
{
	const struct cv *ev = cv_get(w, "event"), *off = cv_get(w, "offset");
	const char *file = cv_text(cv_get(w, "file"), NULL);

	if (ev && !(d->has_event && d->event == ev->u))
		return 0;
	if (!off)
		return 1;
	/* An offset with a file is an offset in that file of the trace. */
	if (file)
		return d->has_file && strcmp(d->file, file) == 0 && d->file_offset == off->u;
	return d->has_offset && d->offset == off->u;
}

/* Is this expected diagnostic required of this decoder? Says why not. */
static int required(struct cmp *c, const struct cv *w, const char **why)
{
	const char *code = cv_text(cv_get(w, "code"), "");
	const struct cv *must = cv_get(w, "must"), *ev = cv_get(w, "event");

	*why = NULL;
	if (!must || must->kind != CV_BOOL || !must->u)
		return 0;
	if (!(reach_of(code) & c->d.checks)) {
		*why = "its reach is not one the decoder checks";
		return 0;
	}
	if (ev && c->events && ev->u < c->events->n &&
	    !supports_event(c, cv_text(cv_get(&c->events->item[ev->u], "name"), ""))) {
		*why = "it concerns an event-version the decoder does not support";
		return 0;
	}
	return 1;
}

static const char *where(const struct cv *w, char *buf, size_t n)
{
	const struct cv *ev = cv_get(w, "event"), *off = cv_get(w, "offset");

	const char *file = cv_text(cv_get(w, "file"), NULL);

	if (ev)
		snprintf(buf, n, " at event %" PRIu64, ev->u);
	else if (off && file)
		snprintf(buf, n, " at byte %" PRIu64 " of %s", off->u, file);
	else if (off)
		snprintf(buf, n, " at byte %" PRIu64, off->u);
	else
		buf[0] = 0;
	return buf;
}

/* Returns 1 when the decoder rejected the case in a way its expectation
 * does not list (an i_ case may be rejected). */
static int judge_diags(struct cmp *c, int report)
{
	size_t nw = c->ediags && c->ediags->kind == CV_ARRAY ? c->ediags->n : 0;
	int any_error = 0, unlisted = 0, allowed_error = 0, required_error = 0;
	char buf[64];

	for (size_t i = 0; i < c->nad; i++)
		any_error |= c->ad[i].error;
	for (size_t i = 0; i < nw; i++) {
		const struct cv *w = &c->ediags->item[i];
		const char *code = cv_text(cv_get(w, "code"), ""), *why;
		const char *sev = cv_text(cv_get(w, "severity"), "");
		int req = required(c, w, &why);
		int is_error = strcmp(sev, "error") == 0 || strcmp(sev, "any") == 0;

		if (is_error && (reach_of(code) & c->d.checks))
			allowed_error = 1;
		if (why && report)
			put(c, GCSPEC_DIAG_K010, OR_NO_EVENT, "%s%s not required: %s", code,
			    where(w, buf, sizeof buf), why);
		if (!req)
			continue;
		if (!c->d.codes) {
			required_error |= is_error;
			continue;
		}
		size_t k;

		for (k = 0; k < c->nad; k++)
			if (code_matches(code, c->ad[k].code) && place_matches(w, &c->ad[k]))
				break;
		if (k == c->nad && report) {
			const char *elsewhere = "";

			for (k = 0; k < c->nad; k++)
				if (code_matches(code, c->ad[k].code))
					elsewhere = " (it was reported elsewhere)";
			put(c, GCSPEC_DIAG_K007, OR_NO_EVENT, "%s%s was not reported%s", code,
			    where(w, buf, sizeof buf), elsewhere);
			c->missed = 1;
		}
	}
	if (!c->d.codes) {
		if (required_error && !any_error && report) {
			put(c, GCSPEC_DIAG_K007, OR_NO_EVENT, "the case must be rejected (it holds an "
			    "error in a reach the decoder checks) but no error was reported");
			c->missed = 1;
		}
		return any_error && (!allowed_error || *c->cls == 'i');
	}
	for (size_t k = 0; k < c->nad; k++) {
		size_t i;

		if (!c->ad[k].error)
			continue;
		for (i = 0; i < nw; i++) {
			const struct cv *w = &c->ediags->item[i];

			if (code_matches(cv_text(cv_get(w, "code"), ""), c->ad[k].code) &&
			    place_matches(w, &c->ad[k]))
				break;
		}
		if (i == nw)
			unlisted++;
	}
	return unlisted > 0;
}

/* A rejection the case does not allow, when the case's own errors lie in a
 * reach the decoder did not declare: the decoder may well be right, and
 * only its declaration short. Says how to declare it (into buf, "" when
 * that is not the reason). */
static const char *reach_hint(const struct cmp *c, const struct adiag *d, char *buf, size_t n)
{
	size_t nw = c->ediags && c->ediags->kind == CV_ARRAY ? c->ediags->n : 0;
	unsigned missing = 0, all;
	const char *code = "";
	size_t k = 0;

	buf[0] = 0;
	if (*d->code && (reach_of(d->code) & c->d.checks))
		return buf;
	for (size_t i = 0; i < nw; i++) {
		const struct cv *w = &c->ediags->item[i];
		const char *sev = cv_text(cv_get(w, "severity"), "");
		unsigned r = reach_of(cv_text(cv_get(w, "code"), ""));

		if (strcmp(sev, "error") != 0 || (r & c->d.checks) || r == R_ALL || !r)
			continue;
		if (!missing)
			code = cv_text(cv_get(w, "code"), "");
		missing |= r;
	}
	if (!missing)
		return buf;
	k += (size_t)snprintf(buf, n, " (the case's fault, %s, is in a reach the decoder does "
			      "not declare; if it checks that, declare it: \"checks\":[", code);
	all = c->d.checks | missing;
	for (unsigned i = 0, first = 1; i < 5 && k < n; i++)
		if (all & 1u << i) {
			k += (size_t)snprintf(buf + k, n - k, "%s\"%s\"", first ? "" : ",",
					      cd_check_names[i]);
			first = 0;
		}
	if (k < n)
		snprintf(buf + k, n - k, "])");
	return buf;
}

static void report_unlisted(struct cmp *c)
{
	size_t nw = c->ediags && c->ediags->kind == CV_ARRAY ? c->ediags->n : 0;
	char at[40], hint[200];

	for (size_t k = 0; k < c->nad; k++) {
		size_t i;

		if (!c->ad[k].error)
			continue;
		for (i = 0; c->d.codes && i < nw; i++) {
			const struct cv *w = &c->ediags->item[i];

			if (code_matches(cv_text(cv_get(w, "code"), ""), c->ad[k].code) &&
			    place_matches(w, &c->ad[k]))
				break;
		}
		if (c->d.codes && i < nw)
			continue;
		at[0] = 0;
		if (!c->ad[k].has_event && c->ad[k].has_offset)
			snprintf(at, sizeof at, " at byte %" PRIu64, c->ad[k].offset);
		put_k(c, GCSPEC_DIAG_K008, c->ad[k].has_event ? c->ad[k].event : OR_NO_EVENT,
		    *c->cls == 'y' ? AC_REJECTS : -1, "-", "%s%serror reported%s, which the case does not allow%s%s%s%s", c->ad[k].code,
		    *c->ad[k].code ? " " : "", at, *c->ad[k].msg ? ": \"" : "", c->ad[k].msg,
		    *c->ad[k].msg ? "\"" : "", reach_hint(c, &c->ad[k], hint, sizeof hint));
	}
}

/* --- the run ------------------------------------------------------------------------ */

/* One line of at most MAX_LINE bytes into *line (grown as needed); a longer
 * line is read to its end and dropped (*too_long set), so memory stays
 * bounded whatever the decoder prints. Returns its length, or -1 at EOF. */
static ssize_t read_line(FILE *in, char **line, size_t *cap, int *too_long)
{
	size_t n = 0;
	int ch;

	*too_long = 0;
	while ((ch = getc(in)) != EOF) {
		if (ch == '\n')
			break;
		if (n >= MAX_LINE) {
			*too_long = 1;
			continue;
		}
		if (n + 1 >= *cap) {
			size_t nc = *cap ? *cap * 2 : 4096;
			char *b = realloc(*line, nc);

			if (!b)
				return -1;
			*line = b;
			*cap = nc;
		}
		(*line)[n++] = (char)ch;
	}
	if (ch == EOF && n == 0 && !*too_long)
		return -1;
	return (ssize_t)n;
}

static int cmp_key(const void *a, const void *b)
{
	const struct cv *x = *(const struct cv *const *)a, *y = *(const struct cv *const *)b;

	return strcmp(cv_text(x, ""), cv_text(y, ""));
}

/* The first key a map of v (at any depth) holds twice, or NULL. JSON allows
 * them, but which one a reader keeps is up to it: a decoder must not print
 * them. Sorting keeps a hostile line of a million keys cheap. */
static const char *duplicate_key(const struct cv *v)
{
	const char *dup = NULL;

	if (v->kind == CV_ARRAY) {
		for (size_t i = 0; i < v->n && !dup; i++)
			dup = duplicate_key(&v->item[i]);
		return dup;
	}
	if (v->kind != CV_MAP || v->n < 2)
		return v->kind == CV_MAP && v->n ? duplicate_key(&v->item[1]) : NULL;
	{
		const struct cv **k = malloc(v->n * sizeof *k);

		if (!k)
			return NULL;
		for (size_t i = 0; i < v->n; i++)
			k[i] = &v->item[2 * i];
		qsort(k, v->n, sizeof *k, cmp_key);
		for (size_t i = 1; i < v->n && !dup; i++)
			if (cmp_key(&k[i - 1], &k[i]) == 0)
				dup = cv_text(k[i], "");
		free(k);
	}
	for (size_t i = 0; i < v->n && !dup; i++)
		dup = duplicate_key(&v->item[2 * i + 1]);
	return dup;
}

/* The decoder's lines: 0 read, 1 a format the decoder does not read, -1 a
 * read error, -2 a declaration naming what is not known. */
static int read_actual(struct cmp *c, FILE *in)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	uint64_t lineno = 0;
	int too_long;

	while ((n = read_line(in, &line, &cap, &too_long)) >= 0) {
		char err[200];
		struct cv *v;
		const char *type;

		lineno++;
		if (too_long) {
			put(c, GCSPEC_DIAG_K012, OR_NO_EVENT, "line %" PRIu64 " is longer than %u bytes",
			    lineno, MAX_LINE);
			continue;
		}
		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			n--;
		if (n)
			line[n] = 0; /* read_line leaves room for it */
		if (!n)
			continue;
		if (!(v = cv_parse_json(line, (size_t)n, err, sizeof err)) || v->kind != CV_MAP) {
			if (!c->nactual && !c->d.given && !c->nad && !c->differences) {
				/* Not one JSON line yet: not JSON lines at all (a crash
				 * message, a text report), one diagnostic, not one per line. */
				char sb[80];

				put(c, GCSPEC_DIAG_K017, OR_NO_EVENT, "the decoder's output is not JSON "
				    "lines: line %" PRIu64 " (\"%s\"): %s", lineno,
				    safe(sb, sizeof sb, line), v ? "not a JSON object" : err);
				cv_free(v);
				c->not_json = 1;
				free(line);
				return 0;
			}
			put(c, GCSPEC_DIAG_K012, OR_NO_EVENT, "line %" PRIu64 ": %s", lineno,
			    v ? "not a JSON object" : err);
			cv_free(v);
			continue;
		}
		{
			const char *dup = duplicate_key(v);
			char kb[80];

			if (dup) {
				put(c, GCSPEC_DIAG_K016, OR_NO_EVENT, "line %" PRIu64 ": key \"%s\" "
				    "appears twice in one object", lineno, safe(kb, sizeof kb, dup));
				cv_free(v);
				continue;
			}
		}
		type = cv_text(cv_get(v, "type"), "");
		if (strcmp(type, "event") == 0) {
			if (take_event(c, v))
				v = NULL;
		}
		else if (strcmp(type, "diag") == 0 || strcmp(type, "error") == 0)
			take_diag(c, v, strcmp(type, "error") == 0);
		else if (strcmp(type, "decoder") == 0) {
			int taken = take_decl(c, v);

			if (taken < 0) {
				cv_free(v);
				free(line);
				return taken;
			}
			if (!supports_format(c)) {
				cv_free(v);
				free(line);
				return 1;
			}
		} else if (strcmp(type, "summary") != 0 && strcmp(type, "case") != 0 &&
			   strcmp(type, "expect") != 0)
			put(c, GCSPEC_DIAG_K012, OR_NO_EVENT, "line %" PRIu64 ": unknown type \"%s\"",
			    lineno, type);
		cv_free(v);
	}
	free(line);
	return ferror(in) ? -1 : 0;
}

int or_compare_has_error(FILE *in)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int too_long, found = 0;

	while (!found && (n = read_line(in, &line, &cap, &too_long)) >= 0) {
		struct cv *v;
		char err[8];
		const char *type;

		if (too_long || !n || !(v = cv_parse_json(line, (size_t)n, err, sizeof err)))
			continue;
		type = cv_text(cv_get(v, "type"), "");
		if (strcmp(type, "error") == 0 || strcmp(type, "diag") == 0)
			found = line_is_error(v, strcmp(type, "error") == 0);
		cv_free(v);
	}
	free(line);
	return found;
}

static int is_field_difference(const struct held *h)
{
	return (h->code == GCSPEC_DIAG_K004 || h->code == GCSPEC_DIAG_K005) && h->field[0] &&
	       strcmp(h->field, "-") != 0;
}

/* The places of the events with field differences, from the case's trace. */
static struct cl_locs *locate(struct cmp *c)
{
	uint8_t *want;
	struct held h;
	struct cl_locs *l = NULL;
	int any = 0;

	if (!c->events || !c->held || !(want = calloc(c->events->n + 1, 1)))
		return NULL;
	rewind(c->held);
	while (fread(&h, sizeof h, 1, c->held) == 1)
		if (is_field_difference(&h) && h.event < c->events->n)
			any = want[h.event] = 1;
	if (any)
		l = cl_locate(c->trace, want, c->events->n);
	free(want);
	return l;
}

/* The held event differences, now that they count; each field difference
 * with the event's byte offset and the field's place in the payload. */
static void replay_held(struct cmp *c)
{
	struct cl_locs *l = locate(c);
	struct held h;

	if (c->held) {
		rewind(c->held);
		while (fread(&h, sizeof h, 1, c->held) == 1) {
			uint64_t at;
			uint32_t off, len;

			if (is_field_difference(&h) && cl_field(l, h.event, h.field, &at, &off, &len) == 0)
				put_k(c, h.code, h.event, h.kind, h.field, "%s [event at byte %" PRIu64
				      ", field at payload +%" PRIu32 ", %" PRIu32 " bytes]", h.msg, at, off,
				      len);
			else
				put_k(c, h.code, h.event, h.kind, h.field, "%s", h.msg);
		}
	}
	cl_free(l);
	if (c->held_lost)
		put(c, GCSPEC_DIAG_K004, OR_NO_EVENT, "%" PRIu64 " more event differences (no room "
		    "to keep their text)", c->held_lost);
}

/* Which accepted differences this case had, one line per entry. */
static void report_accepted(struct cmp *c)
{
	for (size_t i = 0; c->ac && i < c->ac->n; i++) {
		const struct ac_entry *e = &c->ac->e[i];

		if (e->case_hits)
			put(c, GCSPEC_DIAG_K015, OR_NO_EVENT, "%" PRIu64 " accepted: %s %s %s%s%s "
			    "(%s:%u): %s", e->case_hits, ac_kind_name(e->kind), e->event, e->field,
			    e->alias ? "=" : "", e->alias ? e->alias : "", c->ac->path, e->line,
			    e->reason);
	}
}

static void verdict(struct cmp *c)
{
	int rejected = judge_diags(c, 0), i_rejected = rejected && *c->cls == 'i';
	int stopped = 0;

	for (size_t k = 0; k < c->nad; k++)
		stopped |= c->ad[k].error;
	if (rejected && *c->cls == 'y' && accepted(c, AC_REJECTS, c->case_name, NULL)) {
		c->rejection_accepted = 1;
		put(c, GCSPEC_DIAG_K015, OR_NO_EVENT, "the decoder rejected this valid case, which "
		    "the accepted differences list; events not compared");
	} else if (i_rejected) {
		put(c, GCSPEC_DIAG_K011, OR_NO_EVENT, "the decoder rejected this implementation-defined "
		    "case, which it may; events not compared (allowed: %s)",
		    cv_text(cv_get(c->ecase, "allowed"), "?"));
	} else {
		judge_diags(c, 1);
		if (rejected)
			report_unlisted(c);
		replay_held(c);
		/* Missing events: a y_ case must give them all; after a decoder
		 * reported an error in an n_/i_ case, it may have stopped. */
		if (c->events && (*c->cls == 'y' || !stopped || c->all_events)) {
			for (size_t i = 0; i < c->events->n; i++) {
				const char *name = cv_text(cv_get(&c->events->item[i], "name"), "");

				if (c->seen[i] || !supports_event(c, name) ||
				    accepted(c, AC_MISSING_EVENT, name, NULL))
					continue;
				put_k(c, GCSPEC_DIAG_K001, i, AC_MISSING_EVENT, "-",
				      "not in the decoder's output");
			}
		}
	}
	report_accepted(c);
	if (c->unsupported_events || (c->events && c->d.events)) {
		/* Also count the expected events of unsupported versions never printed. */
		for (size_t i = 0; c->events && i < c->events->n; i++) {
			const char *name = cv_text(cv_get(&c->events->item[i], "name"), "");
			const struct gcspec_event *sp = spec_of(name);

			if (!c->seen[i] && !supports_event(c, name)) {
				c->unsupported[sp ? sp - gcspec_events : GCSPEC_NEVENTS]++;
				c->unsupported_events++;
			}
		}
		for (unsigned i = 0; i <= GCSPEC_NEVENTS; i++)
			if (c->unsupported[i])
				put(c, GCSPEC_DIAG_K009, OR_NO_EVENT, "%" PRIu32 " %s events not compared: "
				    "the decoder does not support %s", c->unsupported[i],
				    i < GCSPEC_NEVENTS ? gcspec_events[i].symbol : "unknown",
				    i < GCSPEC_NEVENTS ? "this event-version" : "event-versions the spec lacks");
	}
	if (c->events && c->compared && (c->no_ts || c->no_thread || c->no_process ||
					 c->no_provider))
		put(c, GCSPEC_DIAG_K013, OR_NO_EVENT, "the decoder's events give no%s%s%s%s; not compared",
		    c->no_ts ? " timestamp" : "", c->no_thread ? " thread" : "",
		    c->no_process ? " process" : "", c->no_provider ? " provider" : "");
}

/* What a failing case is about and, when a required diagnostic was missed,
 * what the decoder did there: lines into out (n bytes). */
static void explain(struct cmp *c, char *out, size_t n)
{
	char line[700], file[260], got[600] = "";
	size_t k = 0;
	int stopped = 0;

	k += (size_t)snprintf(out, n, "the case: %s\n", ce_case(line, sizeof line, c->ecase));
	if (!c->missed || k >= n)
		return;
	for (size_t i = 0; i < c->nad && !stopped; i++)
		if (c->ad[i].error) {
			stopped = 1;
			snprintf(got, sizeof got, "the decoder reported an error, but not the one "
				 "required: %s%s\"%s\"", c->ad[i].code, *c->ad[i].code ? " " : "",
				 c->ad[i].msg);
		}
	if (!stopped)
		snprintf(got, sizeof got, "the decoder accepted it: %" PRIu64 " events printed, "
			 "no error", c->nactual);
	k += (size_t)snprintf(out + k, n - k, "%s", got);
	if (k < n && c->target != OR_NO_EVENT) {
		const struct cv *e = c->events && c->target < c->events->n
			? &c->events->item[c->target] : NULL;

		if (e)
			k += (size_t)snprintf(out + k, n - k, "; event %" PRIu64 " in the file: %s",
					      c->target, said_event(file, sizeof file, e));
		if (k < n)
			k += (size_t)snprintf(out + k, n - k, "; %s%s", c->target_got[0]
					      ? "the decoder printed it as " : "the decoder did not "
					      "print that event", c->target_got);
	} else if (k < n && c->nactual) {
		k += (size_t)snprintf(out + k, n - k, "; the last event it printed: %" PRIu64
				      " %s", c->last_idx, c->last_name);
		if (k < n && c->last_off != OR_NO_EVENT)
			k += (size_t)snprintf(out + k, n - k, " at byte %" PRIu64, c->last_off);
	}
	if (k < n)
		snprintf(out + k, n - k, "\n");
}

static void summary(struct cmp *c, const char *result)
{
	if (c->json) {
		fputs("{\"type\":\"compare\",\"case\":", c->out);
		cf_json_string(c->out, c->case_name, strlen(c->case_name));
		fprintf(c->out, ",\"result\":\"%s\",\"events\":%zu,\"events_compared\":%" PRIu64
			",\"fields_compared\":%" PRIu64 ",\"events_unsupported\":%" PRIu64
			",\"differences\":%" PRIu64 ",\"accepted\":%" PRIu64 "}\n", result,
			c->events ? c->events->n : 0, c->compared, c->fields, c->unsupported_events,
			c->differences, c->accepted);
		return;
	}
	if (c->differences > c->shown && !c->more_said)
		fprintf(c->out, "%s: ... and %" PRIu64 " more differences (--max 0 shows all)\n",
			c->case_name, c->differences - c->shown);
	fprintf(c->out, "%s: %s: ", c->case_name, result);
	if (c->events)
		fprintf(c->out, "%" PRIu64 " of %zu events compared (%" PRIu64 " fields), %" PRIu64
			" not supported by %s", c->compared, c->events->n, c->fields,
			c->unsupported_events, c->d.given ? c->d.name : "the decoder");
	else
		fputs("events not compared (the case's fault makes them implementation-defined)", c->out);
	fprintf(c->out, "; %zu diagnostics reported; %" PRIu64 " differences", c->nad,
		c->differences);
	if (c->ac)
		fprintf(c->out, ", %" PRIu64 " accepted", c->accepted);
	fputc('\n', c->out);
}

/* --print: the expectation as JSON lines in gcoracle --json's shape. */
static void print_case(struct cmp *c)
{
	const struct cv *m = c->ecase;

	fputs("{\"type\":\"case\"", c->out);
	for (size_t i = 0; i < m->n; i++) {
		const char *k = cv_text(&m->item[2 * i], "");

		if (strcmp(k, "diagnostics") == 0 || strcmp(k, "schema") == 0)
			continue;
		fputc(',', c->out);
		cf_render(c->out, NULL, &m->item[2 * i]);
		fputc(':', c->out);
		cf_render(c->out, NULL, &m->item[2 * i + 1]);
	}
	fputs("}\n", c->out);
	for (size_t i = 0; c->events && i < c->events->n; i++) {
		const struct cv *e = &c->events->item[i], *f = cv_get(e, "fields");
		const struct gcspec_event *sp = spec_of(cv_text(cv_get(e, "name"), ""));

		fprintf(c->out, "{\"type\":\"event\",\"index\":%" PRIu64 ",\"name\":",
			cv_uint(cv_get(e, "index"), i));
		cf_render(c->out, NULL, cv_get(e, "name"));
		fputs(",\"provider\":", c->out);
		cf_render(c->out, NULL, cv_get(e, "provider"));
		fprintf(c->out, ",\"id\":%" PRIu64 ",\"version\":%" PRIu64 ",\"timestamp\":%" PRIu64
			",\"thread\":%" PRIu64, cv_uint(cv_get(e, "id"), 0),
			cv_uint(cv_get(e, "version"), 0), cv_uint(cv_get(e, "timestamp"), 0),
			cv_uint(cv_get(e, "thread"), 0));
		if (cv_get(e, "process"))
			fprintf(c->out, ",\"process\":%" PRIu64, cv_uint(cv_get(e, "process"), 0));
		if (f && sp) {
			const struct gcspec_field *sf = gcspec_event_fields(sp);
			int first = 1;

			fputs(",\"fields\":{", c->out);
			for (unsigned k = 0; k < sp->nfields; k++) {
				const struct cv *v;

				if (sf[k].is_member || !(v = cv_get(f, sf[k].name)))
					continue;
				fprintf(c->out, "%s\"%s\":", first ? "" : ",", sf[k].name);
				cf_render(c->out, &sf[k], v);
				first = 0;
			}
			fputc('}', c->out);
		}
		fputs("}\n", c->out);
	}
	for (size_t i = 0; c->ediags && i < c->ediags->n; i++) {
		const struct cv *d = &c->ediags->item[i];

		fputs("{\"type\":\"expect\"", c->out);
		for (size_t k = 0; d->kind == CV_MAP && k < d->n; k++) {
			fputc(',', c->out);
			cf_render(c->out, NULL, &d->item[2 * k]);
			fputc(':', c->out);
			cf_render(c->out, NULL, &d->item[2 * k + 1]);
		}
		fputs("}\n", c->out);
	}
}

static void usage(FILE *f)
{
	fputs("usage: gcoracle compare [--json] [--quiet] [--all-events] [--max N] [--accept FILE]\n"
	      "                        [--corpus DIR] EXPECTED ACTUAL\n"
	      "       gcoracle compare --print [--corpus DIR] EXPECTED\n"
	      "Compare a decoder's JSON-lines output (ACTUAL, - for standard input) with a corpus\n"
	      "case's expectation (corpus/expect/NAME.cbor); docs/using-the-corpus.md.\n"
	      "  --json         differences as JSON lines (all of them), then a \"compare\" line\n"
	      "  --quiet        print only differences and the summary\n"
	      "  --all-events   every event, even after the decoder reported an error\n"
	      "  --max N        differences printed (default 40; 0: all); all are counted\n"
	      "  --accept FILE  differences the decoder knowingly has (docs/accepted-differences.md)\n"
	      "  --corpus DIR   the corpus root the case's events file is named from\n"
	      "  --print        render the expectation as JSON lines (gcoracle --json's shape)\n"
	      "Exit status: 0 the output matches, 1 differences, 2 unreadable input, output\n"
	      "that is not JSON lines, or bad usage.\n",
	      f);
}

int or_compare_case(const struct or_compare_opts *o, const char *expected, FILE *in,
		    const char *actual_name, struct or_compare_result *r)
{
	struct cmp *c = calloc(1, sizeof *c);
	int rc = 2;

	memset(r, 0, sizeof *r);
	snprintf(r->result, sizeof r->result, "error");
	if (!c) {
		fprintf(stderr, "gcoracle compare: out of memory\n");
		return 2;
	}
	c->out = o->out ? o->out : stdout;
	c->json = o->json;
	c->quiet = o->quiet;
	c->all_events = o->all_events;
	c->max = o->max;
	c->ac = o->accept;
	c->d.checks = R_ALL;
	c->d.codes = 1;
	or_diag_init(&c->sink);
	if (load_case(c, expected, o->root) < 0)
		goto out;
	snprintf(r->cls, sizeof r->cls, "%s", c->cls);
	c->target = OR_NO_EVENT;
	for (size_t i = 0; c->ediags && c->ediags->kind == CV_ARRAY && i < c->ediags->n; i++) {
		const struct cv *w = &c->ediags->item[i], *must = cv_get(w, "must");

		if (must && must->kind == CV_BOOL && must->u && cv_get(w, "event")) {
			c->target = cv_get(w, "event")->u;
			break;
		}
	}
	if (!in) {
		print_case(c);
		rc = 0;
		goto out;
	}
	switch (read_actual(c, in)) {
	case 1:
		put(c, GCSPEC_DIAG_K014, OR_NO_EVENT, "%s does not read format %s; case skipped",
		    c->d.name, c->format);
		summary(c, "skip");
		snprintf(r->result, sizeof r->result, "skip");
		rc = 0;
		goto out;
	case -1:
		fprintf(stderr, "gcoracle compare: %s: read error\n", gc_esc(actual_name));
		goto out;
	case -2:
		/* A typo in the declaration must never narrow a comparison into
		 * a pass: the output is not compared at all. */
		fprintf(stderr, "gcoracle compare: %s: the decoder's declaration: %s\n",
			gc_esc(actual_name), c->decl_error);
		snprintf(r->decl_error, sizeof r->decl_error, "%s", c->decl_error);
		goto out;
	}
	if (c->not_json) {
		summary(c, "error");
		goto out;
	}
	if (c->pending)
		settle_pending(c, NULL, 0);
	verdict(c);
	rc = c->differences ? 1 : 0;
	if (rc) {
		FILE *m = fmemopen(r->groups, sizeof r->groups, "w");

		if (m) {
			cg_print(m, "", &c->groups, RESULT_GROUPS);
			fclose(m);
		}
		if (!c->json && c->differences > c->shown) {
			char lead[300];

			fprintf(c->out, "%s: ... and %" PRIu64 " more differences (--max 0 shows all); "
				"all %" PRIu64 " by kind:\n", c->case_name, c->differences - c->shown,
				c->differences);
			snprintf(lead, sizeof lead, "%s: ", c->case_name);
			cg_print(c->out, lead, &c->groups, SHOWN_GROUPS);
			c->more_said = 1;
		}
		explain(c, r->explain, sizeof r->explain);
		for (const char *p = r->explain; !c->json && *p;) {
			size_t len = strcspn(p, "\n");

			fprintf(c->out, "%s: %.*s\n", c->case_name, (int)len, p);
			p += len + (p[len] == '\n');
		}
	}
	summary(c, rc ? "FAIL" : "pass");
	snprintf(r->result, sizeof r->result, "%s", rc ? "FAIL" : "pass");
out:
	for (size_t k = 0; k < c->nad; k++)
		r->rejected |= c->ad[k].error;
	r->differences = c->differences;
	r->rejection_accepted = c->rejection_accepted;
	r->accepted = c->accepted;
	r->events = c->events ? c->events->n : 0;
	r->compared = c->compared;
	r->no_process = c->events && c->compared && c->no_process;
	if (c->ac)
		ac_end_case(c->ac);
	cv_free(c->ecase);
	cv_free(c->edoc);
	cv_free(c->d.formats);
	cv_free(c->d.events);
	cv_free(c->pending);
	free(c->seen);
	free(c->ad);
	if (c->held)
		fclose(c->held);
	free(c);
	return rc;
}

int or_compare_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "all-events", no_argument, NULL, 'a' },
		{ "corpus", required_argument, NULL, 'c' },
		{ "print", no_argument, NULL, 'p' },
		{ "max", required_argument, NULL, 'm' },
		{ "accept", required_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct or_compare_opts o;
	struct or_compare_result r;
	const char *accept = NULL;
	int opt, print = 0, rc = 2;
	FILE *in = NULL;
	char *end;

	memset(&o, 0, sizeof o);
	o.out = stdout;
	o.max = MAX_SHOWN;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'j': o.json = 1; break;
		case 'q': o.quiet = 1; break;
		case 'a': o.all_events = 1; break;
		case 'c': o.root = optarg; break;
		case 'p': print = 1; break;
		case 'A': accept = optarg; break;
		case 'm':
			o.max = (unsigned)strtoul(optarg, &end, 10);
			if (*end || !*optarg || *optarg == '-') {
				fprintf(stderr, "gcoracle compare: --max %s: not a number\n", optarg);
				return 2;
			}
			break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (argc - optind != (print ? 1 : 2)) {
		fprintf(stderr, "gcoracle compare: %s\n", argc - optind < (print ? 1 : 2)
			? (print ? "--print needs EXPECTED" : "needs EXPECTED and ACTUAL")
			: "too many arguments");
		usage(stderr);
		return 2;
	}
	if (accept && !(o.accept = ac_load(accept)))
		return 2;
	if (!print) {
		in = strcmp(argv[optind + 1], "-") == 0 ? stdin : fopen(argv[optind + 1], "re");
		if (!in) {
			fprintf(stderr, "gcoracle compare: %s: %s\n", gc_esc(argv[optind + 1]), strerror(errno));
			ac_free(o.accept);
			return 2;
		}
	}
	rc = or_compare_case(&o, argv[optind], in, print ? NULL : argv[optind + 1], &r);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "gcoracle compare: standard output: cannot write: %s\n",
		        strerror(errno ? errno : EIO));
		rc = 2;
	}
	if (in && in != stdin)
		fclose(in);
	ac_free(o.accept);
	return rc;
}
