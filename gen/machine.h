/*
 * machine.h - a machine-wide trace (gcgen --processes N): N simulated
 * runtimes, each its own process, interleaved in time into one writer, as
 * an ETW session or an LTTng session of a whole machine records them.
 *
 * Process k (0-based) runs profile k % nprofiles with seed S + k, has
 * process id 4242 + 1301 k and thread ids offset by k << 16 (unique on
 * the machine); apart from those, its events are exactly the ones a
 * one-process run of that profile and seed writes, shifted to its start.
 * In .etl, odd k run at the other pointer size (32- and 64-bit processes
 * side by side; the kernel's records and the logfile header are 64-bit).
 * Process 0 runs through the whole trace and takes the stream fault
 * classes. For k >= 1, by k % 3:
 *   1  starts mid-trace (a process start record first) and ends inside its
 *      second GC, right after its GCStart (a process end record);
 *   2  attached mid-life: running before the trace, its events dropped
 *      until a suspension that begins after two GCs with none open, so its
 *      first GC number is above 1;
 *   0  starts mid-trace and runs to the end.
 * With --reuse-pid the last process instead takes process 1's id,
 * profile and pointer size, and its thread starts only once process 1's
 * end has been written (pid reuse: the same ClrInstanceID numbering its
 * GCs from 1 again, told apart only by the start between them).
 * A process start is the kernel logger's Process Start record in .etl
 * and LTTng-UST's statedump (start, procname, end) in CTF; an end is the
 * kernel's Process End in .etl (LTTng-UST records none).
 *
 * Streaming: each process's simulator runs in a thread of its own, and
 * hands its events one at a time to the merger, which writes the earliest
 * (ties: the lower k) and lets that thread go on; only one thread runs at
 * a time, so the trace is the same bytes for the same options.
 */
#ifndef GEN_MACHINE_H
#define GEN_MACHINE_H

#include <stdint.h>
#include <stdio.h>

#include "gen/formats/writer.h"
#include "gen/options.h"

struct gen_machine {
	const struct gen_options *o;
	uint64_t seed, gcs, events;
	const struct gen_stream_info *info;
	struct gen_writer *w;      /* where the merged events go */
	FILE *expect;              /* the merged expectations, or NULL */
	uint64_t nevents;          /* out: runtime events written */
	char error[256];           /* why it failed */
};

/* The base of process k's id. */
#define GEN_MACHINE_PID(k) (4242u + 1301u * (unsigned)(k))

/* Run the processes into m->w (not ended): 0, or -1 with m->error. */
int gen_machine_run(struct gen_machine *m);

#endif
