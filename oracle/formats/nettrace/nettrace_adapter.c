/*
 * read_nettrace.c - the nettrace reader as an or_reader_ops module: a thin
 * adapter from nettrace_r.h to reader.h, reporting into the run's or_ctx.
 */
#include <stdlib.h>

#include "oracle/formats/nettrace/nettrace_r.h"
#include "oracle/oracle.h"

static void report(void *arg, unsigned code, uint64_t event, uint64_t offset,
                   const char *msg)
{
	struct or_ctx *ctx = arg;

	or_report(ctx, code, event == UINT64_MAX ? OR_NO_EVENT : event, offset, NULL,
	          "%s", msg);
}

static int nt_probe(const uint8_t *head, size_t len)
{
	return ntr_probe(head, len);
}

static int nt_open(struct or_reader **r, FILE *in, struct or_ctx *ctx,
                   struct or_stream_info *info)
{
	struct ntr_reader *nr = ntr_open(in, report, ctx, info);

	*r = (struct or_reader *)(void *)nr;
	return nr ? 0 : -1;
}

static enum or_status nt_next(struct or_reader *r, struct or_event *ev)
{
	return ntr_next((struct ntr_reader *)(void *)r, ev);
}

static void nt_close(struct or_reader *r)
{
	ntr_close((struct ntr_reader *)(void *)r);
}

const struct or_reader_ops or_read_nettrace = {
	.format = "nettrace",
	.probe = nt_probe, .open = nt_open, .next = nt_next, .close = nt_close,
};
