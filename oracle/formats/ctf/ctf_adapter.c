/*
 * read_ctf.c - the CTF reader as an or_reader_ops module: a thin adapter
 * from ctf_r.h to reader.h. While a trace is open, diagnostics name the
 * file of the trace their offset is in (ctx->diag.locate).
 *
 * GCCONFORM_CTF_GENERIC=1 in the environment makes the reader decode every
 * event with its generic interpreter instead of its compiled fast paths: the
 * tests compare the two.
 */
#include <stdlib.h>
#include <string.h>

#include "oracle/formats/ctf/ctf_r.h"
#include "oracle/oracle.h"

struct adapter {
	struct ctfr_reader *cr;    /* set by ctfr_open as soon as it exists */
	struct or_ctx *ctx;
};

static void report(void *arg, unsigned code, uint64_t event, uint64_t offset, const char *msg)
{
	struct adapter *a = arg;

	or_report(a->ctx, code, event == UINT64_MAX ? OR_NO_EVENT : event, offset, NULL, "%s", msg);
}

static const char *locate(void *arg, uint64_t offset, uint64_t *file_offset)
{
	struct adapter *a = arg;

	return a->cr ? ctfr_locate(a->cr, offset, file_offset) : NULL;
}

static int ctf_open_dir(struct or_reader **r, const char *path, struct or_ctx *ctx,
                        struct or_stream_info *info)
{
	struct adapter *a = calloc(1, sizeof *a);
	const char *g = getenv("GCCONFORM_CTF_GENERIC");

	*r = NULL;
	if (!a)
		return -1;
	a->ctx = ctx;
	ctx->diag.locate = locate;
	ctx->diag.locate_arg = a;
	if (ctfr_open(&a->cr, path, report, a, info, g && strcmp(g, "1") == 0 ? CTFR_GENERIC : 0) != 0) {
		ctx->diag.locate = NULL;
		ctx->diag.locate_arg = NULL;
		free(a);
		return -1;
	}
	*r = (struct or_reader *)(void *)a;
	return 0;
}

static enum or_status ctf_next(struct or_reader *r, struct or_event *ev)
{
	return ctfr_next(((struct adapter *)(void *)r)->cr, ev);
}

static void ctf_close(struct or_reader *r)
{
	struct adapter *a = (struct adapter *)(void *)r;

	a->ctx->diag.locate = NULL;
	a->ctx->diag.locate_arg = NULL;
	ctfr_close(a->cr);
	free(a);
}

const struct or_reader_ops or_read_ctf = {
	.format = "ctf",
	.next = ctf_next, .close = ctf_close, .probe_dir = ctfr_probe_dir, .open_dir = ctf_open_dir,
};
