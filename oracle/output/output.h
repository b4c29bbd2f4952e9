/*
 * output.h - writers for what the oracle found: JSON lines, CBOR and text.
 *
 * The JSON shapes (one object per line):
 *   {"type":"event","index":N,"offset":O,"name":"GCStart_V2",
 *    "provider":"Microsoft-Windows-DotNETRuntime","id":1,"version":2,
 *    "timestamp":T,"thread":TID,"process":PID,"fields":{...}}
 *   {"type":"diag","code":"GC-S005","severity":"error","event":17,
 *    "offset":1234,"name":"GCEnd_V1","message":"..."}
 *   (directory containers add "file":"channel0_3","file_offset":N after
 *   "offset", which is then the trace offset: see ctf_r.h)
 *   {"type":"summary","events":N,"errors":E,"warnings":W,"notes":K,...}
 * Field values: integers and Pointers as JSON numbers, Booleans as true/false
 * (numbers when not 0 or 1), strings as JSON strings (U+FFFD for unpaired
 * surrogates), GUIDs as "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", Binary as a
 * lowercase hex string, Float/Double as numbers, structs as arrays of
 * objects. Fields after a decoding error are absent. Events passed over
 * (unknown) have "name":"" and no "fields".
 *
 * --cbor writes the same records as a CBOR sequence (RFC 8742), one map per
 * record with the same keys in the same order (docs/oracle-output.cddl):
 * integers as CBOR integers, null for a file diagnostic's event, Float and
 * Double as CBOR single and double floats, Binary as a byte string (JSON:
 * hex), everything else as in JSON. An or_cbor_out owns the buffer one
 * record is assembled in; records are written whole with one fwrite.
 */
#ifndef ORACLE_OUTPUT_H
#define ORACLE_OUTPUT_H

#include <stdio.h>

#include "oracle/decode/decode.h"

/* Event records are buffered (64 KiB, out_json.c) and reach out in order
 * with the others: or_json_diag() and or_json_summary() flush them first,
 * and or_json_flush() does before anything else is written to out. */
void or_json_event(FILE *out, const struct or_event *ev,
                   const struct or_decoded *dec);
void or_json_flush(FILE *out);
void or_json_diag(FILE *out, const struct or_diag *d);
void or_json_summary(FILE *out, const struct or_ctx *ctx);
void or_json_string(FILE *out, const char *s, size_t n);
/* Text that came from an input, written so that it cannot act on a terminal:
 * controls, DEL and bytes that are not UTF-8 as \xNN, C1 controls and
 * bidirectional overrides as \u{XXXX}. */
void or_text_put(FILE *out, const char *s);
void or_text_diag(FILE *out, const struct or_diag *d);

struct or_cbor_out;
/* NULL when memory runs out; or_cbor_out_free() releases it. */
struct or_cbor_out *or_cbor_out_new(FILE *out);
void or_cbor_out_free(struct or_cbor_out *o);
/* Records are buffered (64 KiB); the summary and or_cbor_flush() hand all
 * complete ones to stdio. */
void or_cbor_flush(struct or_cbor_out *o);
void or_cbor_event(struct or_cbor_out *o, const struct or_event *ev,
                   const struct or_decoded *dec);
void or_cbor_diag(struct or_cbor_out *o, const struct or_diag *d);
void or_cbor_summary(struct or_cbor_out *o, const struct or_ctx *ctx);
void or_text_summary(FILE *out, const struct or_ctx *ctx);

#endif
