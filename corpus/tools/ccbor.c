/* ccbor.c - libcbor helpers for the corpus tool (see ccbor.h). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ccbor.h"

cbor_item_t *cc_uint(uint64_t v)
{
	if (v <= 0xFF)
		return cbor_build_uint8((uint8_t)v);
	if (v <= 0xFFFF)
		return cbor_build_uint16((uint16_t)v);
	if (v <= 0xFFFFFFFFu)
		return cbor_build_uint32((uint32_t)v);
	return cbor_build_uint64(v);
}

cbor_item_t *cc_int(int64_t v)
{
	cbor_item_t *it;
	uint64_t m;

	if (v >= 0)
		return cc_uint((uint64_t)v);
	m = (uint64_t)(-1 - v);
	if (m <= 0xFF)
		it = cbor_build_negint8((uint8_t)m);
	else if (m <= 0xFFFF)
		it = cbor_build_negint16((uint16_t)m);
	else if (m <= 0xFFFFFFFFu)
		it = cbor_build_negint32((uint32_t)m);
	else
		it = cbor_build_negint64(m);
	return it;
}

cbor_item_t *cc_text(const char *s)
{
	return cbor_build_stringn(s, strlen(s));
}

int cc_put(cbor_item_t *m, const char *key, cbor_item_t *value)
{
	cbor_item_t *k = cc_text(key);
	int ok;

	if (!k || !value) {
		if (k)
			cbor_decref(&k);
		if (value)
			cbor_decref(&value);
		return -1;
	}
	ok = cbor_map_add(m, (struct cbor_pair){ .key = k, .value = value });
	cbor_decref(&k);
	cbor_decref(&value);
	return ok ? 0 : -1;
}

int cc_push(cbor_item_t *a, cbor_item_t *value)
{
	int ok;

	if (!value)
		return -1;
	ok = cbor_array_push(a, value);
	cbor_decref(&value);
	return ok ? 0 : -1;
}

int cc_definite(cbor_item_t **a)
{
	size_t n = cbor_array_size(*a);
	cbor_item_t *d;

	if (cbor_array_is_definite(*a))
		return 0;
	if (!(d = cbor_new_definite_array(n)))
		return -1;
	for (size_t i = 0; i < n; i++)
		cbor_array_push(d, cbor_array_handle(*a)[i]);
	cbor_decref(a);
	*a = d;
	return 0;
}

int cc_text_is(const cbor_item_t *t, const char *s)
{
	size_t n = strlen(s);

	return t && cbor_isa_string(t) && cbor_string_is_definite(t) &&
	       cbor_string_length(t) == n && memcmp(cbor_string_handle(t), s, n) == 0;
}

cbor_item_t *cc_get(const cbor_item_t *m, const char *key)
{
	struct cbor_pair *p;
	size_t n;

	if (!m || !cbor_isa_map(m))
		return NULL;
	p = cbor_map_handle(m);
	n = cbor_map_size(m);
	for (size_t i = 0; i < n; i++)
		if (cc_text_is(p[i].key, key))
			return p[i].value;
	return NULL;
}

uint64_t cc_get_uint(const cbor_item_t *m, const char *key, uint64_t def)
{
	cbor_item_t *v = cc_get(m, key);

	return v && cbor_isa_uint(v) ? cbor_get_int(v) : def;
}

char *cc_get_text(const cbor_item_t *m, const char *key)
{
	cbor_item_t *v = cc_get(m, key);
	char *s;

	if (!v || !cbor_isa_string(v) || !cbor_string_is_definite(v))
		return NULL;
	s = malloc(cbor_string_length(v) + 1);
	if (!s)
		return NULL;
	memcpy(s, cbor_string_handle(v), cbor_string_length(v));
	s[cbor_string_length(v)] = 0;
	return s;
}

uint8_t *cc_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f) {
		fprintf(stderr, "gccorpus: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		if (n == cap) {
			uint8_t *b = realloc(buf, cap = cap ? cap * 2 : 65536);

			if (!b) {
				free(buf);
				fclose(f);
				fprintf(stderr, "gccorpus: %s: out of memory\n", path);
				return NULL;
			}
			buf = b;
		}
		size_t got = fread(buf + n, 1, cap - n, f);

		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		fprintf(stderr, "gccorpus: %s: read error\n", path);
		free(buf);
		fclose(f);
		return NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

int cc_write_file(const char *path, const void *data, size_t len)
{
	size_t n = strlen(path) + 16;
	char *tmp = malloc(n);
	FILE *f;
	int fd, ok;

	if (!tmp)
		return -1;
	snprintf(tmp, n, "%s.tmpXXXXXX", path);
	if ((fd = mkstemp(tmp)) < 0 || !(f = fdopen(fd, "wb"))) {
		fprintf(stderr, "gccorpus: cannot create a file beside %s: %s\n", path, strerror(errno));
		free(tmp);
		return -1;
	}
	/* mkstemp makes 0600; committed files want the usual mode. */
	fchmod(fd, 0644);
	ok = (len == 0 || fwrite(data, 1, len, f) == len) && fflush(f) == 0;
	ok = fclose(f) == 0 && ok;
	if (!ok || rename(tmp, path) != 0) {
		fprintf(stderr, "gccorpus: cannot write %s\n", path);
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

int cc_write_item(const char *path, const cbor_item_t *item)
{
	unsigned char *buf = NULL;
	size_t size = 0, len = cbor_serialize_alloc(item, &buf, &size);
	int rc;

	if (!len) {
		fprintf(stderr, "gccorpus: %s: out of memory\n", path);
		return -1;
	}
	rc = cc_write_file(path, buf, len);
	free(buf);
	return rc;
}

cbor_item_t *cc_load_file(const char *path)
{
	size_t len;
	uint8_t *buf = cc_read_file(path, &len);
	struct cbor_load_result res;
	cbor_item_t *it;

	if (!buf)
		return NULL;
	it = cbor_load(buf, len, &res);
	free(buf);
	if (!it || res.error.code != CBOR_ERR_NONE || res.read != len) {
		fprintf(stderr, "gccorpus: %s: not one well-formed CBOR item\n", path);
		if (it)
			cbor_decref(&it);
		return NULL;
	}
	return it;
}

void cc_json_string(FILE *out, const char *s, size_t n)
{
	fputc('"', out);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void newline(FILE *out, int indent, int depth)
{
	fputc('\n', out);
	for (int i = 0; i < depth && indent >= 0; i++)
		fputs("  ", out);
}

static void json_item(FILE *out, const cbor_item_t *it, int indent, int depth)
{
	/* Pretty: break lines down to `indent` levels; deeper stays on one line. */
	int pretty = indent >= 0 && depth < indent;

	switch (cbor_typeof(it)) {
	case CBOR_TYPE_UINT:
		fprintf(out, "%" PRIu64, cbor_get_int(it));
		break;
	case CBOR_TYPE_NEGINT:
		/* -1 - m, printed without overflowing int64_t. */
		if (cbor_get_int(it) == UINT64_MAX)
			fputs("-18446744073709551616", out);
		else
			fprintf(out, "-%" PRIu64, cbor_get_int(it) + 1);
		break;
	case CBOR_TYPE_BYTESTRING:
		fputc('"', out);
		for (size_t i = 0; i < cbor_bytestring_length(it); i++)
			fprintf(out, "%02x", cbor_bytestring_handle(it)[i]);
		fputc('"', out);
		break;
	case CBOR_TYPE_STRING:
		cc_json_string(out, (const char *)cbor_string_handle(it), cbor_string_length(it));
		break;
	case CBOR_TYPE_ARRAY: {
		size_t n = cbor_array_size(it);

		fputc('[', out);
		for (size_t i = 0; i < n; i++) {
			if (i)
				fputc(',', out);
			if (pretty)
				newline(out, indent, depth + 1);
			json_item(out, cbor_array_handle(it)[i], indent, depth + 1);
		}
		if (pretty && n)
			newline(out, indent, depth);
		fputc(']', out);
		break;
	}
	case CBOR_TYPE_MAP: {
		size_t n = cbor_map_size(it);
		struct cbor_pair *p = cbor_map_handle(it);

		fputc('{', out);
		for (size_t i = 0; i < n; i++) {
			if (i)
				fputc(',', out);
			if (pretty)
				newline(out, indent, depth + 1);
			json_item(out, p[i].key, -1, 0);
			fputs(pretty ? ": " : ":", out);
			json_item(out, p[i].value, indent, depth + 1);
		}
		if (pretty && n)
			newline(out, indent, depth);
		fputc('}', out);
		break;
	}
	case CBOR_TYPE_FLOAT_CTRL:
		if (cbor_float_ctrl_is_ctrl(it)) {
			if (cbor_is_bool(it))
				fputs(cbor_get_bool(it) ? "true" : "false", out);
			else
				fputs("null", out);
		} else {
			fprintf(out, "%.17g", cbor_float_get_float(it));
		}
		break;
	default:
		fputs("null", out);
	}
}

void cc_json(FILE *out, const cbor_item_t *it, int indent)
{
	json_item(out, it, indent, 0);
}
