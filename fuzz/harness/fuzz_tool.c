/*
 * fuzz_tool.c - build-time helper for the fuzzing side (not installed).
 *
 *   fuzz_tool dict HARNESS            a libFuzzer dictionary for HARNESS, from
 *                                     the spec tables (magic strings, event
 *                                     ids, provider, event and field names)
 *   fuzz_tool decode-seeds IN DIR     one fuzz_decode input per event of the
 *                                     first few of each event-version in the
 *                                     stream IN (any container gcoracle reads)
 *   fuzz_tool mutate SEED N IN DIR    N structure-aware mutants of IN (gcmutator)
 *   fuzz_tool pack DIR OUT            DIR's files as a ustar archive (gcm_tar.h)
 *   fuzz_tool unpack IN DIR           the files of a ustar archive into DIR
 *   fuzz_tool reduce IN OUT CMD...    the fewest events of IN (re-encoded in
 *                                     its container) with which `CMD... FILE`
 *                                     still exits as it does on IN (non-zero):
 *                                     minimises third-party findings
 *
 * Exit 0 on success, 1 on failure (message on stderr), 2 on bad usage.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "fuzz/gcmutator/gcm_model.h"
#include "fuzz/gcmutator/gcm_tar.h"
#include "fuzz/gcmutator/gcmutator.h"
#include "spec/gcspec.h"

/* --- dictionaries ------------------------------------------------------------- */

static void entry(const void *p, size_t n)
{
	const unsigned char *b = p;

	putchar('"');
	for (size_t i = 0; i < n; i++) {
		if (b[i] >= 0x20 && b[i] < 0x7f && b[i] != '"' && b[i] != '\\')
			putchar(b[i]);
		else
			printf("\\x%02x", b[i]);
	}
	puts("\"");
}

static void text(const char *s)
{
	entry(s, strlen(s));
}

static void utf16(const char *s)
{
	unsigned char b[512];
	size_t n = 0;

	for (; *s && n + 2 < sizeof b; s++) {
		b[n++] = (unsigned char)*s;
		b[n++] = 0;
	}
	entry(b, n);
}

/* A CBOR text string: head then bytes. */
static void cbor_text(const char *s)
{
	unsigned char b[300];
	size_t n = strlen(s), h;

	if (n > 255)
		return;
	if (n < 24) {
		b[0] = (unsigned char)(0x60 + n);
		h = 1;
	} else {
		b[0] = 0x78;
		b[1] = (unsigned char)n;
		h = 2;
	}
	memcpy(b + h, s, n);
	entry(b, h + n);
}

static void le(uint64_t v, unsigned w)
{
	unsigned char b[8];

	for (unsigned i = 0; i < w; i++)
		b[i] = (unsigned char)(v >> 8 * i);
	entry(b, w);
}

static void ids(void)
{
	for (unsigned i = 0; i < GCSPEC_NEVENTS; i++) {
		const struct gcspec_event *e = &gcspec_events[i];

		if (i == 0 || e->id != gcspec_events[i - 1].id)
			le(e->id, 2);
	}
}

static int dict(const char *h)
{
	if (strncmp(h, "nettrace", 8) == 0) {
		static const char *const magic[] = { "Nettrace", "!FastSerialization.1", "Trace",
			"EventBlock", "MetadataBlock", "StackBlock", "SPBlock",
			"HardwareThreadCount", "ProcessId", "ExpectedCPUSamplingRate" };

		for (unsigned i = 0; i < sizeof magic / sizeof magic[0]; i++)
			text(magic[i]);
		entry("\x05\x05\x01", 3);
		entry("\x14\x00\x00\x00!FastSerialization.1", 24);
		for (unsigned k = 1; k <= 6; k++)
			le(k << 24, 4);
		for (unsigned i = 0; i < GCSPEC_NPROVIDERS; i++) {
			utf16(gcspec_providers[i].name);
			text(gcspec_providers[i].name);
		}
		ids();
		return 0;
	}
	if (strncmp(h, "model", 5) == 0) {
		static const char *const keys[] = { "format", "gcconform-model", "version",
			"pointer_size", "clock_frequency", "start_ticks", "process_id", "profile",
			"mode", "seed", "keywords", "level", "generator", "timestamp", "thread",
			"provider", "id", "opcode", "name", "fields", "payload" };

		for (unsigned i = 0; i < sizeof keys / sizeof keys[0]; i++)
			cbor_text(keys[i]);
		for (unsigned i = 0; i < GCSPEC_NPROVIDERS; i++)
			cbor_text(gcspec_providers[i].name);
		for (unsigned i = 0; i < GCSPEC_NEVENTS; i++)
			cbor_text(gcspec_events[i].symbol);
		for (unsigned i = 0; i < GCSPEC_NFIELDS; i++)
			if (i == 0 || strcmp(gcspec_fields[i].name, gcspec_fields[i - 1].name))
				cbor_text(gcspec_fields[i].name);
		return 0;
	}
	if (strncmp(h, "ctf", 3) == 0) {
		static const char *const words[] = { "/* CTF 1.8 */", "typealias", "integer", "struct",
			"variant", "enum", "trace", "stream", "event", "clock", "env", "packet.header",
			"packet.context", "event.header", "event.context", "fields", "byte_order = le",
			"align", "size", "signed", "encoding", "base", "map", "sequence", "string",
			"content_size", "packet_size", "timestamp_begin", "timestamp_end",
			"events_discarded", "stream_id", "DotNETRuntime:", "DotNETRuntimePrivate:",
			"DotNETRuntimeRundown:", "ustar" };

		for (unsigned i = 0; i < sizeof words / sizeof words[0]; i++)
			text(words[i]);
		entry("\x57\x1d\xd1\x75", 4); /* metadata packet magic */
		entry("\xc1\x1f\xfc\xc1", 4); /* stream packet magic */
		entry("\xff\xff", 2);           /* extended event header id */
		for (unsigned i = 0; i < GCSPEC_NEVENTS; i++)
			text(gcspec_events[i].symbol);
		return 0;
	}
	if (strncmp(h, "etl", 3) == 0) {
		entry("\x02\x00\x02\xc0", 4);  /* SYSTEM_TRACE_HEADER: version 2, 64-bit, markers */
		entry("\x13\xc0", 2);            /* EVENT_HEADER64 type and marker */
		entry("\x12\xc0", 2);            /* EVENT_HEADER32 */
		entry("\xff\xff\xff\xff", 4);  /* buffer fill */
		entry("\x04\x00", 2);            /* BufferType header */
		entry("\x40\x00", 2);            /* BufferFlag: compressed */
		entry("\x01\x00\x01\x14", 4);  /* LogFileMode: compressed, relogged */
		for (unsigned i = 0; i < GCSPEC_NPROVIDERS; i++)
			entry(gcspec_providers[i].guid, 16);
		ids();
		return 0;
	}
	if (strncmp(h, "decode", 6) == 0) {
		entry("\x00\x00", 2);
		entry("\x00\xd8", 2);
		entry("\x00\xdc", 2);
		entry("\xff\xff\xff\xff", 4);
		entry("\x00\x00\x00\x80", 4);
		entry("\xff\xff\xff\xff\xff\xff\xff\xff", 8);
		/* Map values as the 4-byte fields that hold most of them. */
		for (unsigned i = 0; i < GCSPEC_NMAP_VALUES; i++) {
			unsigned k;

			for (k = 0; k < i; k++)
				if (gcspec_map_values[k].value == gcspec_map_values[i].value)
					break;
			if (k == i)
				le(gcspec_map_values[i].value, 4);
		}
		return 0;
	}
	if (strcmp(h, "compare") == 0) {
		static const char *const words[] = { "\"type\":", "\"decoder\"", "\"event\"",
			"\"diag\"", "\"error\"", "\"index\":", "\"name\":", "\"code\":", "\"codes\":true",
			"\"formats\":", "\"fields\":{", "\"offset\":", "\"file\":", "\"event\":",
			"\\u0000", "\\ud800", "true", "false", "null", "1e308", "-0", "gcconform-corpus-case",
			"gcconform-corpus-events", "schema", "diagnostics", "events", "class", "format",
			"container" };

		for (unsigned i = 0; i < sizeof words / sizeof words[0]; i++)
			text(words[i]);
		for (unsigned i = 0; i < GCSPEC_NDIAGS; i += 4)
			text(gcspec_diags[i].code);
		for (unsigned i = 0; i < GCSPEC_NEVENTS; i += 8)
			text(gcspec_events[i].symbol);
		return 0;
	}
	if (strcmp(h, "gcgen_args") == 0) {
		static const char *const words[] = { "--seed", "--gcs", "--events", "--profile",
			"--list-profiles", "--mode", "exhaustive", "--heaps", "--mutate", "all",
			"--list-mutations", "--format", "--list-formats", "--pointer-size", "--stacks",
			"--keywords", "--level", "--shard", "--output", "--expect", "--values",
			"--writer-option", "--coverage", "--stats", "--uncompressed-headers",
			"--block-bytes", "--sp-every", "--metadata", "upfront", "--full-metadata",
			"ctf", "etl", "nettrace-v5", "nettrace-v6", "18446744073709551615", "4294967297",
			"0x", "1/4" };

		for (unsigned i = 0; i < sizeof words / sizeof words[0]; i++)
			text(words[i]);
		entry("\0", 1);
		return 0;
	}
	fprintf(stderr, "fuzz_tool: no dictionary for harness '%s'\n", h);
	return 1;
}

/* --- seeds ----------------------------------------------------------------------------- */

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
	    !(buf = malloc((size_t)n + 1)) || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "fuzz_tool: cannot read %s\n", path);
		free(buf);
		if (f)
			fclose(f);
		return NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static int spill(const char *dir, const char *name, const uint8_t *p, size_t n)
{
	char path[4096];
	FILE *f;

	if (name[0] == '/')
		snprintf(path, sizeof path, "%s", name);
	else
		snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0) {
		fprintf(stderr, "fuzz_tool: cannot write %s\n", path);
		return -1;
	}
	return 0;
}

static int decode_seeds(const char *in, const char *dir)
{
	static struct gcm_stream s;
	static unsigned per[GCSPEC_NEVENTS];
	static uint8_t buf[3 + 65536];
	uint8_t *data;
	size_t len;
	int rc = 0;

	if (!(data = slurp(in, &len)))
		return 1;
	gcm_stream_init(&s);
	if (gcm_parse(&s, data, len, NULL) != 0) {
		fprintf(stderr, "fuzz_tool: %s: not a stream gcoracle reads\n", in);
		free(data);
		return 1;
	}
	for (size_t i = 0; i < s.n && rc == 0; i++) {
		const struct gcm_event *e = &s.ev[i];
		const struct gcspec_event *sp = e->provider >= 0 ?
			gcspec_lookup((unsigned)e->provider, e->id, e->version) : NULL;
		unsigned idx;
		char name[64];

		if (!sp || e->payload_len > sizeof buf - 3)
			continue;
		idx = (unsigned)(sp - gcspec_events);
		if (per[idx]++ >= 2)
			continue;
		buf[0] = (uint8_t)idx;
		buf[1] = (uint8_t)(idx >> 8);
		buf[2] = s.pointer_size == 4;
		memcpy(buf + 3, gcm_payload(&s, e), e->payload_len);
		snprintf(name, sizeof name, "%s-p%u-%u", sp->symbol, s.pointer_size, per[idx]);
		rc = spill(dir, name, buf, 3 + e->payload_len);
	}
	gcm_stream_free(&s);
	free(data);
	return rc ? 1 : 0;
}

static int mutants(unsigned seed, unsigned n, const char *in, const char *dir)
{
	size_t len, max;
	uint8_t *data = slurp(in, &len), *buf;

	if (!data)
		return 1;
	max = 4 * len + 65536;
	if (!(buf = malloc(max))) {
		free(data);
		return 1;
	}
	for (unsigned i = 0; i < n; i++) {
		char name[64];
		size_t m;

		memcpy(buf, data, len);
		m = gcm_mutate(buf, len, max, seed + i, GCM_FORMAT_ANY);
		snprintf(name, sizeof name, "mutant-%u-%u", seed, i);
		if (spill(dir, name, buf, m) != 0)
			break;
	}
	free(buf);
	free(data);
	return 0;
}

/* --- reducing a finding --------------------------------------------------------------- */

static int run_cmd(char **cmd, const char *path)
{
	char line[8192];
	size_t n = 0;
	int st;

	for (; *cmd && n < sizeof line - 1024; cmd++)
		n += (size_t)snprintf(line + n, sizeof line - n, "'%s' ", *cmd);
	snprintf(line + n, sizeof line - n, "'%s' >/dev/null 2>&1", path);
	st = system(line);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 255;
}

static int try_events(const struct gcm_stream *s, const unsigned char *keep, const char *path,
                      char **cmd)
{
	static struct gcm_stream t;
	uint8_t *out;
	size_t len;
	int rc;

	gcm_stream_init(&t);
	t.format = s->format;
	t.format_version = s->format_version;
	t.pointer_size = s->pointer_size;
	t.clock_frequency = s->clock_frequency;
	t.start_ticks = s->start_ticks;
	t.process_id = s->process_id;
	for (size_t i = 0; i < s->n; i++)
		if (keep[i])
			gcm_push(&t, &s->ev[i], gcm_payload(s, &s->ev[i]));
	rc = gcm_encode(&t, gcm_writer_for(s->format, s->format_version), NULL, &out, &len);
	gcm_stream_free(&t);
	if (rc != 0)
		return -1;
	rc = spill(".", path, out, len);
	free(out);
	return rc ? -1 : run_cmd(cmd, path);
}

static int reduce(const char *in, const char *outp, char **cmd)
{
	static struct gcm_stream s;
	unsigned char *keep;
	size_t len, chunk;
	uint8_t *data = slurp(in, &len);
	int want;

	if (!data)
		return 1;
	want = run_cmd(cmd, in);
	gcm_stream_init(&s);
	if (want == 0 || gcm_parse(&s, data, len, NULL) != 0 || !gcm_writer_for(s.format, 0) ||
	    !(keep = malloc(s.n + 1))) {
		fprintf(stderr, "fuzz_tool: %s: exits 0 or cannot be re-encoded; nothing to reduce\n", in);
		free(data);
		return 1;
	}
	memset(keep, 1, s.n + 1);
	if (try_events(&s, keep, outp, cmd) != want) {
		fprintf(stderr, "fuzz_tool: %s re-encoded no longer exits %d: the finding is in its "
		        "container bytes; keep the original\n", in, want);
		spill(".", outp, data, len);
		free(keep);
		free(data);
		return 1;
	}
	/* Drop chunks of events, halving the chunk until single events. */
	for (chunk = s.n / 2 ? s.n / 2 : 1;; chunk /= 2) {
		for (size_t at = 0; at < s.n; at += chunk) {
			unsigned char save[4096];
			size_t k = chunk < sizeof save ? chunk : sizeof save, kept = 0;

			if (at + k > s.n)
				k = s.n - at;
			for (size_t i = 0; i < k; i++)
				kept += (save[i] = keep[at + i]);
			if (!kept)
				continue;
			memset(keep + at, 0, k);
			if (try_events(&s, keep, outp, cmd) != want)
				memcpy(keep + at, save, k);
		}
		if (chunk == 1)
			break;
	}
	try_events(&s, keep, outp, cmd);
	{
		size_t n = 0;

		for (size_t i = 0; i < s.n; i++)
			n += keep[i];
		fprintf(stderr, "fuzz_tool: %zu of %zu events keep exit status %d: %s\n", n, s.n, want,
		        outp);
	}
	gcm_stream_free(&s);
	free(keep);
	free(data);
	return 0;
}

static int pack(const char *dir, const char *outp)
{
	uint8_t *out;
	size_t len;
	int rc;

	if (gcm_tar_pack(dir, &out, &len) != 0) {
		fprintf(stderr, "fuzz_tool: cannot pack %s\n", dir);
		return 1;
	}
	rc = spill(".", outp, out, len);
	free(out);
	return rc ? 1 : 0;
}

static int unpack(const char *in, const char *dir)
{
	size_t len;
	uint8_t *data = slurp(in, &len);
	int n;

	if (!data)
		return 1;
	n = gcm_tar_unpack(data, len, dir);
	free(data);
	if (n < 0)
		fprintf(stderr, "fuzz_tool: cannot unpack %s into %s\n", in, dir);
	return n < 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "pack") == 0)
		return pack(argv[2], argv[3]);
	if (argc == 4 && strcmp(argv[1], "unpack") == 0)
		return unpack(argv[2], argv[3]);
	if (argc >= 5 && strcmp(argv[1], "reduce") == 0)
		return reduce(argv[2], argv[3], argv + 4);
	if (argc == 3 && strcmp(argv[1], "dict") == 0)
		return dict(argv[2]);
	if (argc == 4 && strcmp(argv[1], "decode-seeds") == 0)
		return decode_seeds(argv[2], argv[3]);
	if (argc == 6 && strcmp(argv[1], "mutate") == 0)
		return mutants((unsigned)strtoul(argv[2], NULL, 0), (unsigned)strtoul(argv[3], NULL, 0),
		               argv[4], argv[5]);
	fprintf(stderr, "usage: fuzz_tool dict HARNESS | decode-seeds IN DIR | mutate SEED N IN DIR | pack DIR OUT | unpack IN DIR | reduce IN OUT CMD...\n");
	return 2;
}
