/*
 * read_model.h - the model-stream reader's test hook.
 *
 * The reader takes a fast path for events of the usual shape
 * (model_scan.h) and a careful path for everything else; both must reach
 * the same events and diagnostics. Tests call or_model_fast_path(0) to send
 * every item the careful way and compare. Not for use outside tests: the
 * setting is global to the process.
 */
#ifndef ORACLE_READ_MODEL_H
#define ORACLE_READ_MODEL_H

void or_model_fast_path(int on);
/* Items the fast path has read so far (to show that it did). */
unsigned long or_model_fast_items(void);

#endif
