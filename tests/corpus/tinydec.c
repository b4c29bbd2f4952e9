/*
 * tinydec - a tiny stand-alone decoder of .NET GC events in EventPipe
 * nettrace V5 files: the worked example of docs/using-the-corpus.md.
 *
 * It is written as another project would write it, from the published
 * nettrace format description and the runtime's event manifest alone: it
 * includes nothing of gcconform (no spec tables, no gen/, no oracle/). It
 * decodes eight GC event-versions and passes over the rest; it checks the
 * container and the payloads of the events it decodes, and nothing else.
 *
 * Output: JSON lines in the shape `gcoracle compare` reads: first what it
 * supports, then one line per event, one per problem ({"type":"error"} when
 * it cannot go on or a payload is wrong, {"type":"diag","severity":
 * "warning"} otherwise). It does not know gcconform's diagnostic codes.
 *
 * usage: tinydec FILE.nettrace      exit status 0, or 1 when it reported an error
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GC_PROVIDER "Microsoft-Windows-DotNETRuntime"

/* The events this decoder knows, from the manifest's templates. Field
 * kinds: 'u' UInt32, 'h' UInt16, 'q' UInt64, 'p' Pointer, 's' UnicodeString. */
static const struct known {
	const char *name;
	unsigned id, version;
	const char *kinds;
	const char *fields[16];
} known[] = {
	{ "GCStart_V2", 1, 2, "uuuuhq",
	  { "Count", "Depth", "Reason", "Type", "ClrInstanceID", "ClientSequenceNumber" } },
	{ "GCEnd_V1", 2, 1, "uuh", { "Count", "Depth", "ClrInstanceID" } },
	{ "GCRestartEEEnd_V1", 3, 1, "h", { "ClrInstanceID" } },
	{ "GCHeapStats_V2", 4, 2, "qqqqqqqqqquuuhqq",
	  { "GenerationSize0", "TotalPromotedSize0", "GenerationSize1", "TotalPromotedSize1",
	    "GenerationSize2", "TotalPromotedSize2", "GenerationSize3", "TotalPromotedSize3",
	    "FinalizationPromotedSize", "FinalizationPromotedCount", "PinnedObjectCount",
	    "SinkBlockCount", "GCHandleCount", "ClrInstanceID", "GenerationSize4",
	    "TotalPromotedSize4" } },
	{ "GCRestartEEBegin_V1", 7, 1, "h", { "ClrInstanceID" } },
	{ "GCSuspendEEEnd_V1", 8, 1, "h", { "ClrInstanceID" } },
	{ "GCSuspendEEBegin_V1", 9, 1, "uuh", { "Reason", "Count", "ClrInstanceID" } },
	{ "GCAllocationTick_V4", 10, 4, "uuhqpsupq",
	  { "AllocationAmount", "AllocationKind", "ClrInstanceID", "AllocationAmount64", "TypeID",
	    "TypeName", "HeapIndex", "Address", "ObjectSize" } },
};
#define NKNOWN (sizeof known / sizeof known[0])

struct meta {
	uint32_t id;
	int gc;           /* provider is the GC one */
	char provider[128];
	uint32_t event_id, version;
};

static const uint8_t *data;
static size_t size, pos;
static unsigned pointer_size = 8;
static struct meta *metas;
static size_t nmetas;
static uint32_t *stacks;       /* stack ids defined since the last sequence point */
static size_t nstacks;
static uint64_t event_index;
static int errors;

static void problem(int error, const char *msg, size_t at)
{
	printf("{\"type\":\"%s\",%s\"offset\":%zu,\"message\":\"%s\"}\n", error ? "error" : "diag",
	       error ? "" : "\"severity\":\"warning\",", at, msg);
	errors |= error;
}

/* Fail: report and stop reading the file. */
static int fail(const char *msg, size_t at)
{
	problem(1, msg, at);
	return -1;
}

static int have(size_t n) { return size - pos >= n; }
static uint32_t rd16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t rd32(const uint8_t *p) { return rd16(p) | rd16(p + 2) << 16; }
static uint64_t rd64(const uint8_t *p) { return rd32(p) | (uint64_t)rd32(p + 4) << 32; }

/* A varint inside [*p, end): 0, or -1 when it runs past end or is too long. */
static int varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	*v = 0;
	for (int shift = 0; shift < 70; shift += 7) {
		if (*p >= end)
			return -1;
		*v |= (uint64_t)(**p & 0x7f) << shift;
		if (!(*(*p)++ & 0x80))
			return 0;
	}
	return -1;
}

/* A NUL-terminated UTF-16 string in [p, end): its length in bytes without
 * the NUL, or -1 when unterminated. */
static long utf16_len(const uint8_t *p, const uint8_t *end)
{
	for (const uint8_t *q = p; end - q >= 2; q += 2)
		if (!q[0] && !q[1])
			return q - p;
	return -1;
}

/* Print UTF-16LE text as a JSON string; -1 on an unpaired surrogate. */
static int print_utf16(FILE *o, const uint8_t *p, long n)
{
	fputc('"', o);
	for (long i = 0; i + 1 < n; i += 2) {
		uint32_t c = rd16(p + i);

		if (c >= 0xDC00 && c <= 0xDFFF)
			return -1;
		if (c >= 0xD800 && c <= 0xDBFF) {
			uint32_t lo = i + 3 < n ? rd16(p + i + 2) : 0;

			if (lo < 0xDC00 || lo > 0xDFFF)
				return -1;
			c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
			i += 2;
		}
		if (c == '"' || c == '\\')
			fprintf(o, "\\%c", (char)c);
		else if (c < 0x20)
			fprintf(o, "\\u%04x", (unsigned)c);
		else if (c < 0x80)
			fputc((int)c, o);
		else if (c < 0x800)
			fprintf(o, "%c%c", 0xC0 | c >> 6, 0x80 | (c & 63));
		else if (c < 0x10000)
			fprintf(o, "%c%c%c", 0xE0 | c >> 12, 0x80 | (c >> 6 & 63), 0x80 | (c & 63));
		else
			fprintf(o, "%c%c%c%c", 0xF0 | c >> 18, 0x80 | (c >> 12 & 63), 0x80 | (c >> 6 & 63),
			       0x80 | (c & 63));
	}
	fputc('"', o);
	return 0;
}

/* The fields of a known event, checked against the payload's length. The
 * line is built in a buffer and printed only when the payload is sound. */
static void print_event(const struct known *k, const struct meta *m, uint64_t ts, uint64_t tid,
			const uint8_t *p, uint32_t len, size_t at)
{
	const uint8_t *q = p, *end = p + len;
	char *buf = NULL;
	size_t blen = 0;
	FILE *o = open_memstream(&buf, &blen);
	const char *bad = NULL;

	if (!o)
		return;
	fprintf(o, "{\"type\":\"event\",\"index\":%llu,\"name\":\"%s\",\"provider\":\"%s\",\"id\":%u,"
	       "\"version\":%u,\"timestamp\":%llu,\"thread\":%llu,\"fields\":{",
	       (unsigned long long)event_index, k->name, m->provider, m->event_id, m->version,
	       (unsigned long long)ts, (unsigned long long)tid);
	for (unsigned i = 0; k->kinds[i] && !bad; i++) {
		unsigned w = k->kinds[i] == 'u' ? 4 : k->kinds[i] == 'h' ? 2 : k->kinds[i] == 'q' ? 8
			   : k->kinds[i] == 'p' ? pointer_size : 0;

		fprintf(o, "%s\"%s\":", i ? "," : "", k->fields[i]);
		if (k->kinds[i] == 's') {
			long n = utf16_len(q, end);

			if (n < 0)
				bad = (end - q) % 2 ? "a string is cut in the middle of a character"
						    : "a string has no NUL terminator";
			else if (print_utf16(o, q, n) < 0)
				bad = "a string holds an unpaired UTF-16 surrogate";
			else
				q += n + 2;
			continue;
		}
		if ((size_t)(end - q) < w) {
			bad = "the payload is shorter than the event's fields";
			break;
		}
		fprintf(o, "%llu", (unsigned long long)(w == 2 ? rd16(q) : w == 4 ? rd32(q) : rd64(q)));
		q += w;
	}
	fprintf(o, "}}\n");
	fclose(o);
	if (bad) {
		/* The header is still right; the fields are not printed. */
		printf("{\"type\":\"event\",\"index\":%llu,\"provider\":\"%s\",\"id\":%u,\"version\":%u,"
		       "\"timestamp\":%llu,\"thread\":%llu}\n", (unsigned long long)event_index,
		       m->provider, m->event_id, m->version, (unsigned long long)ts,
		       (unsigned long long)tid);
		problem(1, bad, at);
	} else {
		fputs(buf, stdout);
		if (q < end)
			problem(0, "the payload is longer than the event's fields", at);
	}
	free(buf);
}

/* A metadata record: MetaDataId, ProviderName, EventId, EventName,
 * Keywords, Version, Level, then fields and tags this decoder skips. */
static int add_meta(const uint8_t *p, uint32_t len, size_t at)
{
	const uint8_t *end = p + len;
	struct meta m;
	long n;

	memset(&m, 0, sizeof m);
	if (len < 4 || (n = utf16_len(p + 4, end)) < 0)
		return fail("a metadata record's provider name is cut", at);
	m.id = rd32(p);
	for (long i = 0; i < n / 2 && (size_t)i + 1 < sizeof m.provider; i++) {
		uint32_t c = rd16(p + 4 + 2 * i);

		m.provider[i] = c >= 0x20 && c < 0x7f && c != '"' && c != '\\' ? (char)c : '?';
	}
	p += 4 + n + 2;
	if (end - p < 4 || (n = utf16_len(p + 4, end)) < 0 || end - (p + 4 + n + 2) < 16)
		return fail("a metadata record is cut", at);
	m.event_id = rd32(p);
	p += 4 + n + 2 + 8;
	m.version = rd32(p);
	m.gc = strcmp(m.provider, GC_PROVIDER) == 0;
	if (m.id == 0)
		return fail("a metadata record defines id 0", at);
	metas = realloc(metas, (nmetas + 1) * sizeof *metas);
	if (!metas)
		return fail("out of memory", at);
	metas[nmetas++] = m;
	return 0;
}

static const struct meta *find_meta(uint32_t id)
{
	for (size_t i = nmetas; i-- > 0;)
		if (metas[i].id == id)
			return &metas[i];
	return NULL;
}

static int stack_known(uint32_t id)
{
	for (size_t i = 0; i < nstacks; i++)
		if (stacks[i] == id)
			return 1;
	return 0;
}

/* The event blobs of an EventBlock or MetadataBlock: [p, end). */
static int blobs(const uint8_t *p, const uint8_t *end, int is_meta)
{
	uint32_t header_size, flags;
	uint64_t meta = 0, seq = 0, ctid = 0, proc = 0, tid = 0, stack = 0, ts = 0, len = 0;

	if (end - p < 20)
		return fail("a block is smaller than its header", (size_t)(p - data));
	header_size = rd16(p);
	flags = rd16(p + 2);
	if (header_size < 20 || header_size > (size_t)(end - p))
		return fail("a block's HeaderSize is below 20 or past the block", (size_t)(p - data));
	p += header_size;
	while (p < end) {
		size_t at = (size_t)(p - data);
		const struct meta *m;

		if (flags & 1) {
			uint8_t f = *p++;
			uint64_t v;

			if ((f & 1) && varint(&p, end, &meta))
				return fail("an event header runs past its block", at);
			if (f & 2) {
				if (varint(&p, end, &v) || varint(&p, end, &ctid) || varint(&p, end, &proc))
					return fail("an event header runs past its block", at);
				seq += v;
			}
			if ((f & 4) && varint(&p, end, &tid))
				return fail("an event header runs past its block", at);
			if ((f & 8) && varint(&p, end, &stack))
				return fail("an event header runs past its block", at);
			if (varint(&p, end, &v))
				return fail("an event header runs past its block", at);
			ts += v;
			p += (f & 16 ? 16 : 0) + (f & 32 ? 16 : 0);
			if (p > end || ((f & 128) && varint(&p, end, &len)))
				return fail("an event header runs past its block", at);
		} else {
			if (end - p < 80 || rd32(p) < 76)
				return fail("an uncompressed event header runs past its block", at);
			meta = rd32(p + 4) & 0x7fffffff;
			tid = rd64(p + 12);
			stack = rd32(p + 32);
			ts = rd64(p + 36);
			len = rd32(p + 76);
			p += 80;
		}
		if (len > (uint64_t)(end - p))
			return fail("an event's payload runs past its block", at);
		if (is_meta) {
			if (meta != 0)
				return fail("a metadata record has a metadata id", at);
			if (add_meta(p, (uint32_t)len, at))
				return -1;
		} else if (meta == 0) {
			return fail("an event has metadata id 0", at);
		} else if (!(m = find_meta((uint32_t)meta))) {
			return fail("an event refers to metadata no block defined", at);
		} else if (stack && !stack_known((uint32_t)stack)) {
			return fail("an event refers to a stack no stack block defined", at);
		} else {
			const struct known *k = NULL;

			for (size_t i = 0; m->gc && i < NKNOWN; i++)
				if (known[i].id == m->event_id && known[i].version == m->version)
					k = &known[i];
			if (k)
				print_event(k, m, ts, tid, p, (uint32_t)len, at);
			else
				printf("{\"type\":\"event\",\"index\":%llu,\"provider\":\"%s\",\"id\":%u,"
				       "\"version\":%u,\"timestamp\":%llu,\"thread\":%llu}\n",
				       (unsigned long long)event_index, m->provider, m->event_id,
				       m->version, (unsigned long long)ts, (unsigned long long)tid);
			event_index++;
		}
		p += len;
		if (!(flags & 1)) /* uncompressed events are padded to 4-byte file offsets */
			while (p < end && (p - data) % 4)
				p++;
		(void)seq, (void)ctid, (void)proc;
	}
	return 0;
}

static int stack_block(const uint8_t *p, const uint8_t *end)
{
	uint32_t first, count;

	if (end - p < 8)
		return fail("a stack block is smaller than its header", (size_t)(p - data));
	first = rd32(p);
	count = rd32(p + 4);
	p += 8;
	for (uint32_t i = 0; i < count; i++) {
		uint32_t n;

		if (end - p < 4 || (n = rd32(p)) > (size_t)(end - p - 4))
			return fail("a stack runs past its block", (size_t)(p - data));
		if (n % pointer_size)
			return fail("a stack's size is not a multiple of the pointer size", (size_t)(p - data));
		stacks = realloc(stacks, (nstacks + 1) * sizeof *stacks);
		if (!stacks)
			return fail("out of memory", (size_t)(p - data));
		stacks[nstacks++] = first + i;
		p += 4 + n;
	}
	return 0;
}

/* One object: BeginPrivateObject, its type, its payload, EndObject. */
static int object(void)
{
	size_t at = pos;
	uint32_t name_len, block;
	const uint8_t *name, *content;
	int32_t min_version;

	if (!have(1))
		return fail("the file ends without the end tag (truncated?)", pos);
	if (data[pos] == 1) { /* NullReference: the end of the stream */
		if (size - pos > 1)
			problem(0, "bytes follow the end tag", pos + 1);
		return 1;
	}
	if (!have(15) || data[pos] != 5 || data[pos + 1] != 5 || data[pos + 2] != 1)
		return fail(have(15) ? "an object does not begin with its type" : "the file ends inside an object", at);
	min_version = (int32_t)rd32(data + pos + 7);
	name_len = rd32(data + pos + 11);
	pos += 15;
	if (name_len > 64 || !have((size_t)name_len + 1))
		return fail("an object's type name length is negative or past the file", at + 11);
	name = data + pos;
	pos += name_len;
	if (data[pos++] != 6)
		return fail("an object's type does not end with EndObject", pos - 1);
	if (min_version > 5 || min_version < 0)
		return fail("the file needs a newer reader (minimum reader version above 5)", at + 7);
#define IS(s) (name_len == strlen(s) && memcmp(name, s, name_len) == 0)
	if (IS("Trace")) {
		if (!have(49))
			return fail("the file ends inside the trace header", pos);
		pointer_size = rd32(data + pos + 32);
		if (pointer_size != 4 && pointer_size != 8)
			return fail("the trace's pointer size is neither 4 nor 8", pos + 32);
		pos += 48;
	} else if (IS("EventBlock") || IS("MetadataBlock") || IS("StackBlock") || IS("SPBlock")) {
		if (!have(4))
			return fail("the file ends inside an object", pos);
		block = rd32(data + pos);
		pos += 4;
		for (; pos % 4; pos++)
			if (!have(1) || data[pos] != 0)
				return fail(have(1) ? "alignment padding is not zero" : "the file ends inside an object", pos);
		if (block > size - pos)
			return fail("a block size is negative or runs past the file", at);
		content = data + pos;
		pos += block;
		if (IS("SPBlock")) {
			nstacks = 0; /* stack ids do not cross sequence points */
		} else if (IS("StackBlock")) {
			if (stack_block(content, content + block))
				return -1;
		} else if (blobs(content, content + block, IS("MetadataBlock"))) {
			return -1;
		}
	} else {
		return fail("an object of an unknown type", at);
	}
	if (!have(1) || data[pos++] != 6)
		return fail(have(1) ? "an object does not end with EndObject" : "the file ends inside an object", pos - 1);
	return 0;
#undef IS
}

int main(int argc, char **argv)
{
	FILE *f;
	uint8_t *buf = NULL;
	size_t cap = 0, got;
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: tinydec FILE.nettrace\n");
		return 2;
	}
	printf("{\"type\":\"decoder\",\"name\":\"tinydec\",\"formats\":[\"nettrace-v5\"],\"events\":[");
	for (size_t i = 0; i < NKNOWN; i++)
		printf("%s\"%s\"", i ? "," : "", known[i].name);
	printf("],\"checks\":[\"container\",\"payload\"],\"codes\":false}\n");
	if (!(f = fopen(argv[1], "rb"))) {
		fprintf(stderr, "tinydec: cannot open %s\n", argv[1]);
		return 2;
	}
	do {
		if (size == cap && !(buf = realloc(buf, cap = cap ? 2 * cap : 1 << 16))) {
			fclose(f);
			return 2;
		}
		got = fread(buf + size, 1, cap - size, f);
		size += got;
	} while (got);
	fclose(f);
	data = buf;
	if (size < 32 || memcmp(data, "Nettrace", 8) != 0 || rd32(data + 8) != 20 ||
	    memcmp(data + 12, "!FastSerialization.1", 20) != 0) {
		fail("not a nettrace V4/V5 file (magic or serialization header)", 0);
	} else {
		pos = 32;
		while ((rc = object()) == 0)
			;
	}
	free(buf);
	free(metas);
	free(stacks);
	return errors ? 1 : 0;
}
