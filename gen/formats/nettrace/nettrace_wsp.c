/* nettrace_wsp.c - the runtime's sequence-point schedule (see nettrace_wsp.h). */
#include "gen/formats/nettrace/nettrace_wsp.h"

#define SP_BUDGET (10u << 20)
#define BUF_BASE (100u << 10)
#define BUF_MAX (1u << 20)
#define PAGE 4096u

void ntw_sp_init(struct ntw_sp *sp, unsigned pointer_size, uint64_t clock_frequency)
{
	sp->budget = SP_BUDGET;
	sp->pass_ticks = clock_frequency >= 10 ? clock_frequency / 10 : 1;
	sp->next_pass = 0;
	sp->pass = 1;
	sp->header = pointer_size == 8 ? 88 : 72;
	sp->started = 0;
}

int ntw_sp_new_buffer(struct ntw_sp *sp, struct ntw_sp_thread *t, uint64_t timestamp, uint32_t size)
{
	uint32_t bsize;

	if (!sp->started) {
		sp->started = 1;
		sp->next_pass = timestamp + sp->pass_ticks;
	}
	/* The writer's pass took every buffer: each thread starts afresh. */
	if (timestamp >= sp->next_pass) {
		sp->pass++;
		sp->next_pass += ((timestamp - sp->next_pass) / sp->pass_ticks + 1) * sp->pass_ticks;
	}
	if (t->pass == sp->pass && size <= t->left) {
		t->left -= size;
		return 0;
	}
	if (t->pass != sp->pass) {
		t->pass = sp->pass;
		t->nbufs = 0;
	}
	/* A thread holding n unwritten buffers gets 100 KiB * (n + 1). */
	{
		uint64_t want = (uint64_t)BUF_BASE * (t->nbufs + 1);

		if (want < size)
			want = size;
		if (want > BUF_MAX)
			want = BUF_MAX;
		bsize = ((uint32_t)want + PAGE - 1) & ~(PAGE - 1);
	}
	t->nbufs++;
	t->left = bsize - size;
	if (bsize >= sp->budget) {
		sp->budget = SP_BUDGET;
		return 1;
	}
	sp->budget -= bsize;
	return 0;
}
