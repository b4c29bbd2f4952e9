/*
 * bt2_graph.h - one CTF trace directory through babeltrace2's reader: the
 * source.ctf.fs -> filter.utils.muxer -> sink graph, the sink taking every
 * message, as the babeltrace2 CLI reads a trace (less the text output).
 * Shared by the forked bt2ctf command and the in-process OSS-Fuzz harness.
 *
 * The ctf and utils plugins are found once per process, built in
 * (babeltrace2 configured with --enable-built-in-plugins) or in the
 * system's plugin directory, and kept: a harness reads thousands of traces.
 */
#ifndef FUZZ_EXT_BT2_GRAPH_H
#define FUZZ_EXT_BT2_GRAPH_H

#include <stdint.h>

/* 0 when both plugins and their component classes were found. */
int bt2_graph_init(void);
/* Read the trace in dir: 0 when the graph ran to its end (events counts
 * its event messages), -1 when babeltrace2 refused it or bt2_graph_init
 * failed. Babeltrace2's errors are cleared, nothing is printed. */
int bt2_read_trace(const char *dir, uint64_t *events);

#endif
