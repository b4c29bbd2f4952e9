/*
 * cbor_scan.c - CBOR heads and item boundaries (RFC 8949), bounds-checked.
 */
#include "oracle/formats/model/cbor_scan.h"

static int skip(const uint8_t *p, size_t n, size_t *pos, int depth)
{
	struct or_cbor_head h;
	int rc;

	if (depth > OR_CBOR_MAX_DEPTH)
		return -1;
	rc = or_cbor_head(p, n, pos, &h);
	if (rc != 1)
		return rc;
	switch (h.major) {
	case 0: case 1: case 7:
		if (h.indef)
			return -1; /* a stray break */
		return 1;
	case 2: case 3:
		if (h.indef) {
			for (;;) {
				if (*pos >= n)
					return 0;
				if (p[*pos] == 0xff) {
					(*pos)++;
					return 1;
				}
				if ((p[*pos] >> 5) != h.major)
					return -1;
				if ((rc = skip(p, n, pos, depth + 1)) != 1)
					return rc;
			}
		}
		if (h.arg > OR_CBOR_MAX_LEN)
			return -1;
		if (n - *pos < h.arg)
			return 0;
		*pos += (size_t)h.arg;
		return 1;
	case 4: case 5:
		if (h.indef) {
			for (;;) {
				if (*pos >= n)
					return 0;
				if (p[*pos] == 0xff) {
					(*pos)++;
					return 1;
				}
				if ((rc = skip(p, n, pos, depth + 1)) != 1)
					return rc;
			}
		}
		if (h.arg > OR_CBOR_MAX_LEN)
			return -1;
		for (uint64_t k = 0; k < h.arg * (h.major == 5 ? 2 : 1); k++)
			if ((rc = skip(p, n, pos, depth + 1)) != 1)
				return rc;
		return 1;
	case 6:
		return skip(p, n, pos, depth + 1);
	}
	return -1;
}

int or_cbor_skip(const uint8_t *p, size_t n, size_t *pos)
{
	size_t at = *pos;
	int rc = skip(p, n, &at, 0);

	if (rc == 1)
		*pos = at;
	return rc;
}
