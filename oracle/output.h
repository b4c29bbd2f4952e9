/*
 * output.h - writers for what the oracle found: JSON lines and text.
 *
 * The JSON shapes (one object per line):
 *   {"type":"event","index":N,"offset":O,"name":"GCStart_V2",
 *    "provider":"Microsoft-Windows-DotNETRuntime","id":1,"version":2,
 *    "timestamp":T,"thread":TID,"fields":{...}}
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
 */
#ifndef ORACLE_OUTPUT_H
#define ORACLE_OUTPUT_H

#include <stdio.h>

#include "decode.h"

void or_json_event(FILE *out, const struct or_event *ev,
                   const struct or_decoded *dec);
void or_json_diag(FILE *out, const struct or_diag *d);
void or_json_summary(FILE *out, const struct or_ctx *ctx);
void or_json_string(FILE *out, const char *s, size_t n);
void or_text_diag(FILE *out, const struct or_diag *d);
void or_text_summary(FILE *out, const struct or_ctx *ctx);

#endif
