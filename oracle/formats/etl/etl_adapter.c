/*
 * read_etl.c - the .etl reader as an or_reader_ops module: a thin adapter
 * from etl_r.h to reader.h, reporting into the run's or_ctx.
 */
#include "oracle/check/check.h"
#include "oracle/formats/etl/etl_r.h"
#include "oracle/oracle.h"

static void report(void *arg, unsigned code, uint64_t event, uint64_t offset,
                   const char *msg)
{
	struct or_ctx *ctx = arg;

	or_report(ctx, code, event == UINT64_MAX ? OR_NO_EVENT : event, offset, NULL,
	          "%s", msg);
}

static void process(void *arg, int start, uint32_t pid, uint64_t timestamp)
{
	or_note_process(arg, start ? OR_PROC_START : OR_PROC_END, pid, timestamp);
}

static int etl_probe(const uint8_t *head, size_t len)
{
	return etr_probe(head, len);
}

static int etl_open(struct or_reader **r, FILE *in, struct or_ctx *ctx,
                    struct or_stream_info *info)
{
	struct etr_reader *er = etr_open(in, report, ctx, info);

	/* --threads N is N threads in all: beside the writing and the reading
	 * thread (pipeline.c), N - 2 expand a compressed file's buffers, the
	 * reading thread some too. A third thread pays when the reading thread
	 * is the slower side (--quiet), not when the writing one is (--json).
	 * Without them the reading thread expands them all. */
	if (er)
		etr_on_process(er, process);
	if (er && ctx->threads > 2)
		(void)etr_set_workers(er, ctx->threads - 2);
	*r = (struct or_reader *)(void *)er;
	return er ? 0 : -1;
}

static enum or_status etl_next(struct or_reader *r, struct or_event *ev)
{
	return etr_next((struct etr_reader *)(void *)r, ev);
}

static void etl_close(struct or_reader *r)
{
	etr_close((struct etr_reader *)(void *)r);
}

const struct or_reader_ops or_read_etl = {
	.format = "etl",
	.probe = etl_probe, .open = etl_open, .next = etl_next, .close = etl_close,
};
